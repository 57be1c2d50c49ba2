import type { Executor } from '#server/platform/db/database.ts';
import {
  createLicenceRepository,
  type Licence,
} from '#server/licensing/licences/licence-repository.ts';

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
  const row = await createLicenceRepository(db).setTrialExpiry(licence.id, expiresAt, now);
  if (!row) throw new Error(`licence ${licence.id} is not a trial`);
  return row;
}
