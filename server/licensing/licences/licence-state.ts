import { checkLicence, noOrgUsage } from './check-licence.ts';
import type { Licence } from './licence-repository.ts';

/**
 * What validation would answer for the licence now, in words for operators: `valid`, `revoked`,
 * `suspended`, `expired`, `deactivated`, … (a revocation or suspension is answered DEACTIVATED,
 * decisions 086 and 248; operators see the cause).
 */
export function licenceState(licence: Licence, now: Date): string {
  if (licence.revokedAt && licence.revokedAt.getTime() <= now.getTime()) {
    return licence.suspended ? 'suspended' : 'revoked';
  }
  const { code } = checkLicence(licence, licence.productId, noOrgUsage, now);
  return code === 'VALID' ? 'valid' : code.toLowerCase().replaceAll('_', ' ');
}
