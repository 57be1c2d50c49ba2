import { and, count, eq, gt, min, sql } from 'drizzle-orm';
import type { Executor } from '#server/platform/db/database.ts';
import { licences } from '#server/platform/db/schema.ts';

/**
 * Free licences (and so licence e-mails) one normalized address may receive in a day (decision
 * 158): a stranger can type anyone's address at a free checkout.
 */
export const FREE_LICENCES_PER_ADDRESS_PER_DAY = 3;
const WINDOW = sql`interval '1 day'`;

export type FreeLicenceAllowance =
  { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** The free licences an address received lately, for the daily allowance (decision 158). */
export function createFreeLicenceRepository(db: Executor) {
  return {
    /**
     * Whether `emailNormalized` may get another free licence now: counted from the free licences
     * issued to it in the last 24 hours (database time, as their `created_at`), so every provider
     * and instance counts the same rows, and a licence counts once however often it is synced.
     */
    async allowance(emailNormalized: string): Promise<FreeLicenceAllowance> {
      const [row] = await db
        .select({
          issued: count(),
          // Seconds until the oldest of them leaves the window.
          retryAfter: sql<
            string | null
          >`ceil(extract(epoch from (${min(licences.createdAt)} + ${WINDOW} - now())))`,
        })
        .from(licences)
        .where(
          and(
            eq(licences.emailNormalized, emailNormalized),
            eq(licences.type, 'Free'),
            gt(licences.createdAt, sql`now() - ${WINDOW}`),
          ),
        );
      if (!row || row.issued < FREE_LICENCES_PER_ADDRESS_PER_DAY) return { allowed: true };
      return { allowed: false, retryAfterSeconds: Math.max(1, Number(row.retryAfter ?? 1)) };
    },

    /** In the transaction that issues one: one address's free licences are issued one at a time. */
    async lockAddress(emailNormalized: string): Promise<void> {
      await db.execute(
        sql`select pg_advisory_xact_lock(hashtextextended(${`free-licence:${emailNormalized}`}, 7302))`,
      );
    },
  };
}
