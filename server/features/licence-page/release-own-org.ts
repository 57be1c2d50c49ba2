import { createLicenceRepository } from '#server/licensing/licences/licence-repository.ts';
import {
  releaseLicenceOrg,
  type ReleaseOrgResult,
} from '#server/licensing/licence-orgs/release-licence-org.ts';
import { normalizeSalesforceOrgId } from '#server/licensing/licence-validation/salesforce-org-id.ts';
import { attribute, customerActor } from '#server/platform/audit/audit-context.ts';
import type { Database } from '#server/platform/db/database.ts';

/**
 * The page's "Release" button (decision 229): only a licence issued to the signed-in address —
 * another's answers as unknown, so ids of other licences reveal nothing — and with the customer's
 * cap of decision 228, audited as `customer:<address>`.
 */
export async function releaseOwnOrg(
  deps: { db: Database; clock: () => Date },
  emailNormalized: string,
  input: { licenceId: string; orgId: string },
): Promise<ReleaseOrgResult> {
  const licence = await createLicenceRepository(deps.db).findById(input.licenceId);
  if (!licence || licence.emailNormalized !== emailNormalized) {
    return { ok: false, code: 'LicenceNotFound' };
  }
  const orgId = normalizeSalesforceOrgId(input.orgId);
  if (!orgId) return { ok: false, code: 'OrgNotInUse' };
  attribute({ actor: customerActor(emailNormalized) });
  return releaseLicenceOrg(deps, { licenceId: licence.id, orgId, by: 'customer' });
}
