import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Executor } from '#server/platform/db/database.ts';
import { licencePageSessions, licencePageSignIns } from '#server/platform/db/schema.ts';

export type LicencePageSignIn = typeof licencePageSignIns.$inferSelect;
export type LicencePageSession = typeof licencePageSessions.$inferSelect;

/** Sign-ins (e-mailed code and link) and sessions of the licence page (decision 229). */
export function createLicencePageRepository(db: Executor) {
  return {
    async insertSignIn(row: typeof licencePageSignIns.$inferInsert): Promise<void> {
      await db.insert(licencePageSignIns).values(row);
    },

    /** The newest sign-in of the address that may still be used, locked until the transaction ends. */
    async lockNewestLiveSignIn(
      emailNormalized: string,
      now: Date,
    ): Promise<LicencePageSignIn | undefined> {
      const [row] = await db
        .select()
        .from(licencePageSignIns)
        .where(
          and(
            eq(licencePageSignIns.emailNormalized, emailNormalized),
            isNull(licencePageSignIns.usedAt),
            gt(licencePageSignIns.expiresAt, now),
          ),
        )
        .orderBy(desc(licencePageSignIns.createdAt))
        .limit(1)
        .for('update');
      return row;
    },

    async lockSignInByLinkHash(linkHash: string): Promise<LicencePageSignIn | undefined> {
      const [row] = await db
        .select()
        .from(licencePageSignIns)
        .where(eq(licencePageSignIns.linkHash, linkHash))
        .for('update');
      return row;
    },

    /** Counts a wrong code; the sign-in is used up (dead) at `maxTries`. */
    async recordFailedTry(id: string, maxTries: number, now: Date): Promise<void> {
      await db
        .update(licencePageSignIns)
        .set({
          failedAttempts: sql`${licencePageSignIns.failedAttempts} + 1`,
          usedAt: sql`case when ${licencePageSignIns.failedAttempts} + 1 >= ${maxTries} then ${now.toISOString()}::timestamptz else null end`,
        })
        .where(eq(licencePageSignIns.id, id));
    },

    async markUsed(id: string, now: Date): Promise<void> {
      await db.update(licencePageSignIns).set({ usedAt: now }).where(eq(licencePageSignIns.id, id));
    },

    async insertSession(row: typeof licencePageSessions.$inferInsert): Promise<void> {
      await db.insert(licencePageSessions).values(row);
    },

    async findLiveSession(idHash: string, now: Date): Promise<LicencePageSession | undefined> {
      const [row] = await db
        .select()
        .from(licencePageSessions)
        .where(
          and(
            eq(licencePageSessions.idHash, idHash),
            isNull(licencePageSessions.endedAt),
            gt(licencePageSessions.expiresAt, now),
          ),
        );
      return row;
    },

    async endSession(idHash: string, now: Date): Promise<void> {
      await db
        .update(licencePageSessions)
        .set({ endedAt: now })
        .where(and(eq(licencePageSessions.idHash, idHash), isNull(licencePageSessions.endedAt)));
    },
  };
}
