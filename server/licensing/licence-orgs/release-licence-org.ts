import { recordAuditEvent } from '#server/platform/audit/audit-log-repository.ts';
import type { Database } from '#server/platform/db/database.ts';
import { ORG_ACTIVE_DAYS } from '../licences/check-licence.ts';
import { createLicenceOrgReleaseRepository } from './licence-org-release-repository.ts';

/** A customer releases at most this many orgs of one licence… (decision 228) */
export const ORG_RELEASES_PER_WINDOW = 3;
/** …within this many days; then support releases them. */
export const ORG_RELEASE_WINDOW_DAYS = 30;

const DAY_MS = 24 * 60 * 60 * 1000;

export interface ReleasedOrg {
  orgId: string;
  firstSeenAt: Date;
  lastSeenAt: Date;
}

export type ReleaseOrgResult =
  | {
      ok: true;
      released: ReleasedOrg;
      /** For a customer: releases left in the window, and when the oldest one counted ends. */
      customerReleases: { left: number; nextAt: Date | null } | null;
    }
  | { ok: false; code: 'LicenceNotFound' | 'OrgNotInUse' }
  | { ok: false; code: 'OrgReleaseLimit'; retryAt: Date };

/**
 * Frees the org's slot in the licence's quota at once (decision 228): its row goes, so the next
 * validation of another org is admitted (every instance within the validation cache's window); the
 * org itself is admitted again, as a new one, if it validates later. A customer (a sandbox refresh
 * gave the org a new id) may release `ORG_RELEASES_PER_WINDOW` orgs of a licence in
 * `ORG_RELEASE_WINDOW_DAYS` days, so a licence cannot be shared by rotating orgs through its slots;
 * an operator is not capped. Audited as `licence.org_released` with the current actor and reason.
 */
export async function releaseLicenceOrg(
  deps: { db: Database; clock: () => Date },
  input: { licenceId: string; orgId: string; by: 'customer' | 'operator' },
): Promise<ReleaseOrgResult> {
  const now = deps.clock();
  return deps.db.transaction(async (tx) => {
    const repository = createLicenceOrgReleaseRepository(tx);
    const licence = await repository.lockLicence(input.licenceId);
    if (!licence) return { ok: false, code: 'LicenceNotFound' };
    const since = new Date(now.getTime() - ORG_RELEASE_WINDOW_DAYS * DAY_MS);
    const earlier =
      input.by === 'customer' ? await repository.customerReleasesSince(licence.id, since) : [];
    const oldest = earlier[0];
    if (oldest && earlier.length >= ORG_RELEASES_PER_WINDOW) {
      return {
        ok: false,
        code: 'OrgReleaseLimit',
        retryAt: new Date(oldest.releasedAt.getTime() + ORG_RELEASE_WINDOW_DAYS * DAY_MS),
      };
    }
    // An org that has not validated for 30 days holds no slot: nothing to release.
    const activeSince = new Date(now.getTime() - ORG_ACTIVE_DAYS * DAY_MS);
    const org = await repository.deleteActiveOrg(licence.id, input.orgId, activeSince);
    if (!org) return { ok: false, code: 'OrgNotInUse' };
    await repository.recordRelease({
      licenceId: licence.id,
      orgId: org.orgId,
      releasedAt: now,
      byCustomer: input.by === 'customer',
    });
    const released = { orgId: org.orgId, firstSeenAt: org.firstSeenAt, lastSeenAt: org.lastSeenAt };
    await recordAuditEvent(tx, {
      action: 'licence.org_released',
      targetType: 'licence',
      targetId: licence.id,
      subjectEmail: licence.email,
      before: released,
    });
    if (input.by !== 'customer') return { ok: true, released, customerReleases: null };
    const counted = [...earlier, { releasedAt: now }];
    const left = ORG_RELEASES_PER_WINDOW - counted.length;
    const first = counted[0];
    return {
      ok: true,
      released,
      customerReleases: {
        left,
        nextAt:
          left === 0 && first
            ? new Date(first.releasedAt.getTime() + ORG_RELEASE_WINDOW_DAYS * DAY_MS)
            : null,
      },
    };
  });
}
