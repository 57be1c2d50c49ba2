import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { licences } from '../db/schema.ts';
import type { Licence } from './licence-repository.ts';

/** Longest reason an operator may record with a revocation. */
export const MAX_REVOCATION_REASON_LENGTH = 500;

/**
 * Revokes a licence at once (fraud, chargeback, a key published on the internet): validations
 * answer DEACTIVATED (with a revocation detail) from then on, whatever its subscription does, until it is reinstated. The
 * lifecycle fields are left alone, so payments keep being recorded and reinstating returns the
 * licence to the state its subscription gives it (decision 086). Undefined when it was revoked
 * already.
 */
export async function revokeLicence(
  db: Executor,
  licenceId: string,
  now: Date,
  reason: string | null = null,
): Promise<Licence | undefined> {
  const [row] = await db
    .update(licences)
    .set({ revokedAt: now, revocationReason: reason, updatedAt: now })
    .where(and(eq(licences.id, licenceId), isNull(licences.revokedAt)))
    .returning();
  return row;
}

/** Lifts a revocation; undefined when the licence was not revoked. */
export async function reinstateLicence(
  db: Executor,
  licenceId: string,
  now: Date,
): Promise<Licence | undefined> {
  const [row] = await db
    .update(licences)
    .set({ revokedAt: null, revocationReason: null, updatedAt: now })
    .where(and(eq(licences.id, licenceId), isNotNull(licences.revokedAt)))
    .returning();
  return row;
}
