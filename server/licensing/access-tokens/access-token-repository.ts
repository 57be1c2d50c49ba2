import { and, count, desc, eq, isNull, lt, notInArray, or } from 'drizzle-orm';
import type { Executor } from '#server/platform/db/database.ts';
import { accessTokens, licences } from '#server/platform/db/schema.ts';

export type AccessTokenRecord = typeof accessTokens.$inferSelect;
export type NewAccessTokenRecord = typeof accessTokens.$inferInsert;

export function createAccessTokenRepository(db: Executor) {
  return {
    async insert(values: NewAccessTokenRecord): Promise<AccessTokenRecord> {
      const [row] = await db.insert(accessTokens).values(values).returning();
      if (!row) throw new Error('access token insert returned no row');
      return row;
    },

    /**
     * Serialises token creation per licence, so the active-token limit holds under races; returns
     * what the created-token e-mail needs of the licence as it is under the lock.
     */
    async lockLicence(
      licenceId: string,
    ): Promise<{ id: string; email: string; keyHash: string; keyHint: string } | undefined> {
      const [row] = await db
        .select({
          id: licences.id,
          email: licences.email,
          keyHash: licences.keyHash,
          keyHint: licences.keyHint,
        })
        .from(licences)
        .where(eq(licences.id, licenceId))
        .for('update');
      return row;
    },

    async countActive(licenceId: string): Promise<number> {
      const [row] = await db
        .select({ value: count() })
        .from(accessTokens)
        .where(and(eq(accessTokens.licenceId, licenceId), isNull(accessTokens.revokedAt)));
      return row?.value ?? 0;
    },

    /** Every token of a licence, newest first, revoked ones included. */
    listForLicence(licenceId: string): Promise<AccessTokenRecord[]> {
      return db
        .select()
        .from(accessTokens)
        .where(eq(accessTokens.licenceId, licenceId))
        .orderBy(desc(accessTokens.createdAt), desc(accessTokens.id));
    },

    /** The tokens of a licence that still work, oldest first. */
    listActiveForLicence(licenceId: string): Promise<AccessTokenRecord[]> {
      return db
        .select()
        .from(accessTokens)
        .where(and(eq(accessTokens.licenceId, licenceId), isNull(accessTokens.revokedAt)))
        .orderBy(accessTokens.createdAt, accessTokens.id);
    },

    /**
     * Revokes every active token of a licence except those in `keep` (ids of other licences in
     * `keep` change nothing); returns the tokens it revoked.
     */
    revokeAllForLicence(
      licenceId: string,
      now: Date,
      keep: readonly string[] = [],
    ): Promise<AccessTokenRecord[]> {
      return db
        .update(accessTokens)
        .set({ revokedAt: now })
        .where(
          and(
            eq(accessTokens.licenceId, licenceId),
            isNull(accessTokens.revokedAt),
            keep.length > 0 ? notInArray(accessTokens.id, [...keep]) : undefined,
          ),
        )
        .returning();
    },

    async findById(id: string): Promise<AccessTokenRecord | undefined> {
      const [row] = await db.select().from(accessTokens).where(eq(accessTokens.id, id));
      return row;
    },

    async findByHash(tokenHash: string): Promise<AccessTokenRecord | undefined> {
      const [row] = await db
        .select()
        .from(accessTokens)
        .where(eq(accessTokens.tokenHash, tokenHash));
      return row;
    },

    /**
     * Revokes a token that is still active; undefined when it was revoked already. In a
     * transaction of its own (a savepoint inside one), where the audit log sees who acts.
     */
    async revoke(id: string, now: Date): Promise<AccessTokenRecord | undefined> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(accessTokens)
          .set({ revokedAt: now })
          .where(and(eq(accessTokens.id, id), isNull(accessTokens.revokedAt)))
          .returning();
        return row;
      });
    },

    /** Records a use, at most once per interval (`staleBefore`), so validations rarely write. */
    async touch(id: string, now: Date, staleBefore: Date): Promise<void> {
      await db
        .update(accessTokens)
        .set({ lastUsedAt: now })
        .where(
          and(
            eq(accessTokens.id, id),
            or(isNull(accessTokens.lastUsedAt), lt(accessTokens.lastUsedAt, staleBefore)),
          ),
        );
    },
  };
}

export type AccessTokenRepository = ReturnType<typeof createAccessTokenRepository>;
