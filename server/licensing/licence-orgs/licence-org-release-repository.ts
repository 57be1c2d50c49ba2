import { and, asc, eq, gte } from 'drizzle-orm';
import type { Executor } from '#server/platform/db/database.ts';
import { licenceOrgReleases, licenceOrgs, licences } from '#server/platform/db/schema.ts';

export function createLicenceOrgReleaseRepository(db: Executor) {
  return {
    /** The licence, locked until the transaction ends: releases and admissions take turns. */
    async lockLicence(licenceId: string) {
      const [row] = await db
        .select()
        .from(licences)
        .where(eq(licences.id, licenceId))
        .for('update');
      return row;
    },

    /** Removes the org from the licence if it validated since `activeSince`; the row it had. */
    async deleteActiveOrg(licenceId: string, orgId: string, activeSince: Date) {
      const [row] = await db
        .delete(licenceOrgs)
        .where(
          and(
            eq(licenceOrgs.licenceId, licenceId),
            eq(licenceOrgs.orgId, orgId),
            gte(licenceOrgs.lastSeenAt, activeSince),
          ),
        )
        .returning();
      return row;
    },

    /** The customer's releases of the licence since `since`, oldest first. */
    customerReleasesSince(licenceId: string, since: Date) {
      return db
        .select()
        .from(licenceOrgReleases)
        .where(
          and(
            eq(licenceOrgReleases.licenceId, licenceId),
            eq(licenceOrgReleases.byCustomer, true),
            gte(licenceOrgReleases.releasedAt, since),
          ),
        )
        .orderBy(asc(licenceOrgReleases.releasedAt));
    },

    async recordRelease(release: typeof licenceOrgReleases.$inferInsert): Promise<void> {
      await db.insert(licenceOrgReleases).values(release);
    },
  };
}
