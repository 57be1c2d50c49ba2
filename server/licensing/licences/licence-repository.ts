import { and, desc, eq, isNotNull, isNull, or } from 'drizzle-orm';
import type { Executor } from '#server/platform/db/database.ts';
import { licences, trialClaims, type LicenceType } from '#server/platform/db/schema.ts';
import { createAccessTokenRepository } from '#server/licensing/access-tokens/access-token-repository.ts';

export type Licence = typeof licences.$inferSelect;
export type NewLicence = typeof licences.$inferInsert;

/** Licences and the per-address claims that make "one trial per address" hold. */
export function createLicenceRepository(db: Executor) {
  return {
    /** Moves a trial's end date; undefined when the licence is not a trial. */
    async setTrialExpiry(
      licenceId: string,
      expiresAt: Date,
      now: Date,
    ): Promise<Licence | undefined> {
      // In a transaction, where the audit log sees who acts (decision 224).
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(licences)
          .set({ expiresAt, updatedAt: now })
          .where(and(eq(licences.id, licenceId), eq(licences.type, 'Trial')))
          .returning();
        return row;
      });
    },

    /**
     * Sets a Pro licence's org count (its quantity) when no subscription governs it (a licence
     * action, decision 231); undefined when the licence is not a Pro one.
     */
    async setProQuantity(
      licenceId: string,
      quantity: number,
      now: Date,
    ): Promise<Licence | undefined> {
      // In a transaction, where the audit log sees who acts (decision 224).
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(licences)
          .set({ quantity, updatedAt: now })
          .where(
            and(
              eq(licences.id, licenceId),
              eq(licences.edition, 'Pro'),
              isNull(licences.subscriptionId),
            ),
          )
          .returning();
        return row;
      });
    },

    /**
     * Replaces the key hash if it is still `currentHash` (of two racing rotations one wins) and,
     * in the same transaction, revokes every access token of the licence but those in
     * `keepTokenIds`: credentials end with the key they were made with
     * (docs/product-rules.md#credentials). Undefined, and nothing changed, for the losing rotation.
     */
    async replaceKeyHash(
      licenceId: string,
      currentHash: string,
      next: { keyHash: string; keyHint: string },
      now: Date,
      keepTokenIds: readonly string[] = [],
    ): Promise<{ licence: Licence; endedTokens: number } | undefined> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(licences)
          .set({ ...next, updatedAt: now })
          .where(and(eq(licences.id, licenceId), eq(licences.keyHash, currentHash)))
          .returning();
        if (!row) return undefined;
        const ended = await createAccessTokenRepository(tx).revokeAllForLicence(
          licenceId,
          now,
          keepTokenIds,
        );
        return { licence: row, endedTokens: ended.length };
      });
    },

    /**
     * Marks a licence revoked and, in the same transaction, revokes all its access tokens for good
     * (a reinstatement does not bring them back; docs/product-rules.md#credentials). A suspended
     * licence is revoked at once, without a reinstatement in between (decision 248). Undefined when
     * it was revoked already (or, for a suspension, stopped already).
     */
    async revoke(
      licenceId: string,
      now: Date,
      reason: string | null,
      /** A suspension keeps them: they answer DEACTIVATED with the licence until it is reinstated. */
      endTokens = true,
    ): Promise<{ licence: Licence; endedTokens: number } | undefined> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(licences)
          .set({ revokedAt: now, revocationReason: reason, suspended: !endTokens, updatedAt: now })
          .where(
            and(
              eq(licences.id, licenceId),
              endTokens
                ? or(isNull(licences.revokedAt), eq(licences.suspended, true))
                : isNull(licences.revokedAt),
            ),
          )
          .returning();
        if (!row) return undefined;
        if (!endTokens) return { licence: row, endedTokens: 0 };
        const ended = await createAccessTokenRepository(tx).revokeAllForLicence(licenceId, now);
        return { licence: row, endedTokens: ended.length };
      });
    },

    /** Lifts a revocation; undefined when the licence was not revoked. */
    async reinstate(licenceId: string, now: Date): Promise<Licence | undefined> {
      // In a transaction, where the audit log sees who acts (decision 224).
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(licences)
          .set({ revokedAt: null, revocationReason: null, suspended: false, updatedAt: now })
          .where(and(eq(licences.id, licenceId), isNotNull(licences.revokedAt)))
          .returning();
        return row;
      });
    },

    async insert(values: NewLicence): Promise<Licence> {
      const [row] = await db.insert(licences).values(values).returning();
      if (!row) throw new Error('licence insert returned no row');
      return row;
    },

    /**
     * Records that an address holds a licence. Returns false when it already had one: the primary
     * key decides, so two concurrent requests cannot both win.
     */
    async claimEmailAddress(claim: {
      emailHash: string;
      licenceId: string;
      licenceType: LicenceType;
    }): Promise<boolean> {
      const inserted = await db
        .insert(trialClaims)
        .values({
          emailHash: claim.emailHash,
          firstLicenceId: claim.licenceId,
          firstLicenceType: claim.licenceType,
        })
        .onConflictDoNothing()
        .returning({ emailHash: trialClaims.emailHash });
      return inserted.length === 1;
    },

    /** Every licence of a (normalized) address, newest first. */
    findByNormalizedEmail(emailNormalized: string): Promise<Licence[]> {
      return db
        .select()
        .from(licences)
        .where(eq(licences.emailNormalized, emailNormalized))
        .orderBy(desc(licences.createdAt));
    },

    async findById(id: string): Promise<Licence | undefined> {
      const [row] = await db.select().from(licences).where(eq(licences.id, id));
      return row;
    },

    async findByKeyHash(keyHash: string): Promise<Licence | undefined> {
      const [row] = await db.select().from(licences).where(eq(licences.keyHash, keyHash));
      return row;
    },

    async hasClaim(emailHash: string): Promise<boolean> {
      const rows = await db
        .select({ emailHash: trialClaims.emailHash })
        .from(trialClaims)
        .where(eq(trialClaims.emailHash, emailHash));
      return rows.length > 0;
    },
  };
}

export type LicenceRepository = ReturnType<typeof createLicenceRepository>;
