import { and, count, desc, eq, isNull, lt, or } from 'drizzle-orm';
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

    /** Serialises token creation per licence, so the active-token limit holds under races. */
    async lockLicence(licenceId: string): Promise<void> {
      await db
        .select({ id: licences.id })
        .from(licences)
        .where(eq(licences.id, licenceId))
        .for('update');
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

    /** Revokes a token that is still active; undefined when it was revoked already. */
    async revoke(id: string, now: Date): Promise<AccessTokenRecord | undefined> {
      const [row] = await db
        .update(accessTokens)
        .set({ revokedAt: now })
        .where(and(eq(accessTokens.id, id), isNull(accessTokens.revokedAt)))
        .returning();
      return row;
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
