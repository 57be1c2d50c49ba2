import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { licences } from '../../db/schema.ts';
import type { Licence } from '../../licences/licence-repository.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The new end of a trial extended by `days`: counted from its end, or from now if it has ended. */
export function extendedTrialExpiry(current: Date | null, days: number, now: Date): Date {
  const base = current && current > now ? current : now;
  return new Date(base.getTime() + days * DAY_MS);
}

/** Moves a trial's end date; only trials (paid licences follow their subscription). */
export async function extendTrial(
  db: Executor,
  licence: Licence,
  days: number,
  now: Date,
): Promise<Licence> {
  const expiresAt = extendedTrialExpiry(licence.expiresAt, days, now);
  const [row] = await db
    .update(licences)
    .set({ expiresAt, updatedAt: now })
    .where(and(eq(licences.id, licence.id), eq(licences.type, 'Trial')))
    .returning();
  if (!row) throw new Error(`licence ${licence.id} is not a trial`);
  return row;
}
