import { and, count, eq, gte, isNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '#server/platform/db/database.ts';
import { accessTokens, licenceOrgs, licences, subscriptions } from '#server/platform/db/schema.ts';
import type { Licence } from '../licences/licence-repository.ts';

/** A licence as one validation sees it, read in a single round trip. */
export interface LicenceForValidation {
  licence: Licence;
  /** When the requested org last validated this licence; null if never (or no org was named). */
  orgLastSeenAt: Date | null;
  /** Orgs that validated this licence since the activity cut-off. */
  orgsInUse: number;
  /**
   * Active orgs used more recently than the requested one (ties by org id): it holds a slot while
   * this is below the quota (invariant 1). 0 when the org is not known.
   */
  orgRank: number;
  /** The earliest due date of an unpaid invoice of the licence's subscription (invariant 9). */
  unpaidInvoiceDueAt: Date | null;
  /** The access token used, when the request authenticated with one. */
  accessToken: { id: string; lastUsedAt: Date | null } | null;
}

export function createLicenceValidationRepository(db: Executor) {
  const orgsInUseSince = (since: Date) =>
    sql<number>`(select count(*) from ${licenceOrgs} where ${licenceOrgs.licenceId} = ${licences.id} and ${licenceOrgs.lastSeenAt} >= ${since.toISOString()})`.mapWith(
      Number,
    );

  // Counted over the licence's active orgs only; with no such org the comparisons are null: 0.
  const orgRankSince = (since: Date) =>
    sql<number>`(select count(*) from ${licenceOrgs} as newer where newer.licence_id = ${licences.id} and newer.last_seen_at >= ${since.toISOString()} and (newer.last_seen_at > ${licenceOrgs.lastSeenAt} or (newer.last_seen_at = ${licenceOrgs.lastSeenAt} and newer.org_id < ${licenceOrgs.orgId})))`.mapWith(
      Number,
    );
  const unpaidInvoiceDueAt =
    sql<Date | null>`(select min(${subscriptions.openInvoiceDueAt}) from ${subscriptions} where ${subscriptions.licenceId} = ${licences.id} and ${subscriptions.collection} = 'invoice')`.mapWith(
      subscriptions.openInvoiceDueAt,
    );
  const columns = (activeSince: Date) => ({
    licence: licences,
    orgLastSeenAt: licenceOrgs.lastSeenAt,
    orgsInUse: orgsInUseSince(activeSince),
    orgRank: orgRankSince(activeSince),
    unpaidInvoiceDueAt,
  });

  return {
    /** The licence with this key hash, the requested org's last visit and the orgs in use. */
    async findByKeyHash(
      keyHash: string,
      orgId: string | null,
      activeSince: Date,
    ): Promise<LicenceForValidation | undefined> {
      const [row] = await db
        .select(columns(activeSince))
        .from(licences)
        .leftJoin(
          licenceOrgs,
          and(eq(licenceOrgs.licenceId, licences.id), eq(licenceOrgs.orgId, orgId ?? '')),
        )
        .where(eq(licences.keyHash, keyHash));
      return row && { ...row, accessToken: null };
    },

    /** The same, reached through an access token that has not been revoked. */
    async findByAccessTokenHash(
      tokenHash: string,
      orgId: string | null,
      activeSince: Date,
    ): Promise<LicenceForValidation | undefined> {
      const [row] = await db
        .select({
          ...columns(activeSince),
          tokenId: accessTokens.id,
          tokenLastUsedAt: accessTokens.lastUsedAt,
        })
        .from(accessTokens)
        .innerJoin(licences, eq(licences.id, accessTokens.licenceId))
        .leftJoin(
          licenceOrgs,
          and(eq(licenceOrgs.licenceId, licences.id), eq(licenceOrgs.orgId, orgId ?? '')),
        )
        .where(and(eq(accessTokens.tokenHash, tokenHash), isNull(accessTokens.revokedAt)));
      if (!row) return undefined;
      const { tokenId, tokenLastUsedAt, ...rest } = row;
      return { ...rest, accessToken: { id: tokenId, lastUsedAt: tokenLastUsedAt } };
    },

    /** Serialises org admissions of one licence, so two new orgs cannot both take the last slot. */
    async lockLicence(licenceId: string): Promise<void> {
      await db
        .select({ id: licences.id })
        .from(licences)
        .where(eq(licences.id, licenceId))
        .for('update');
    },

    /** When an org last validated a licence, if ever. */
    async orgLastSeen(licenceId: string, orgId: string): Promise<Date | null> {
      const [row] = await db
        .select({ lastSeenAt: licenceOrgs.lastSeenAt })
        .from(licenceOrgs)
        .where(and(eq(licenceOrgs.licenceId, licenceId), eq(licenceOrgs.orgId, orgId)));
      return row?.lastSeenAt ?? null;
    },

    async countOrgsInUse(licenceId: string, activeSince: Date): Promise<number> {
      const [row] = await db
        .select({ value: count() })
        .from(licenceOrgs)
        .where(and(eq(licenceOrgs.licenceId, licenceId), gte(licenceOrgs.lastSeenAt, activeSince)));
      return row?.value ?? 0;
    },

    /** Records a visit of an org: a new row, or a fresh last-seen time for a known one. */
    async recordOrgVisit(licenceId: string, orgId: string, now: Date) {
      await db
        .insert(licenceOrgs)
        .values({ licenceId, orgId, firstSeenAt: now, lastSeenAt: now })
        .onConflictDoUpdate({
          target: [licenceOrgs.licenceId, licenceOrgs.orgId],
          set: { lastSeenAt: now },
        });
    },

    /** Moves an org's last-seen time forward only if it is older than `staleBefore`. */
    async touchOrg(licenceId: string, orgId: string, now: Date, staleBefore: Date) {
      await db
        .update(licenceOrgs)
        .set({ lastSeenAt: now })
        .where(
          and(
            eq(licenceOrgs.licenceId, licenceId),
            eq(licenceOrgs.orgId, orgId),
            lt(licenceOrgs.lastSeenAt, staleBefore),
          ),
        );
    },

    /** Orgs of a licence, most recently seen first (operator view). */
    listOrgs(licenceId: string) {
      return db
        .select()
        .from(licenceOrgs)
        .where(eq(licenceOrgs.licenceId, licenceId))
        .orderBy(sql`${licenceOrgs.lastSeenAt} desc`);
    },
  };
}

export type LicenceValidationRepository = ReturnType<typeof createLicenceValidationRepository>;
