import type { Executor } from '#server/platform/db/database.ts';
import { createLicenceRepository, type Licence } from './licence-repository.ts';

/** Longest reason an operator may record with a revocation. */
export const MAX_REVOCATION_REASON_LENGTH = 500;

/**
 * Revokes a licence at once (fraud, chargeback, a key published on the internet): validations
 * answer DEACTIVATED (with a revocation detail) from then on, whatever its subscription does,
 * until it is reinstated. Its access tokens end with it, for good (decision 212). The lifecycle
 * fields are left alone, so payments keep being recorded and reinstating returns the licence to
 * the state its subscription gives it (decision 086). Undefined when it was revoked already.
 */
export async function revokeLicence(
  db: Executor,
  licenceId: string,
  now: Date,
  reason: string | null = null,
): Promise<{ licence: Licence; endedTokens: number } | undefined> {
  return createLicenceRepository(db).revoke(licenceId, now, reason);
}

/**
 * Suspends a licence (support's stop, decision 241): validations answer DEACTIVATED as for a
 * revocation, but its access tokens are kept, so a reinstatement brings back the key and the
 * tokens alike. Undefined when it was suspended or revoked already.
 */
export async function suspendLicence(
  db: Executor,
  licenceId: string,
  now: Date,
  reason: string,
): Promise<Licence | undefined> {
  return (await createLicenceRepository(db).revoke(licenceId, now, reason, false))?.licence;
}

/** Lifts a revocation or a suspension; undefined when the licence was neither. */
export async function reinstateLicence(
  db: Executor,
  licenceId: string,
  now: Date,
): Promise<Licence | undefined> {
  return createLicenceRepository(db).reinstate(licenceId, now);
}
