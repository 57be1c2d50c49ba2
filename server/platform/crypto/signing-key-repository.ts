import { and, desc, eq, gt, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.ts';
import { signingKeys, type SigningKeyPurpose } from '../db/schema.ts';

/** A key's public half as recorded. */
export interface RecordedSigningKey {
  keyId: string;
  publicKeyPem: string;
}

/** The public halves of the keys that signed, by purpose, with when each first and last signed. */
export function createSigningKeyRepository(db: Executor) {
  return {
    /**
     * Records a use of the key at `now`: its first, or a later one (never moving the last use
     * backwards). A key recorded for another purpose is left as it is.
     */
    async recordUse(
      key: { purpose: SigningKeyPurpose; keyId: string; publicKeyPem: string },
      now: Date,
    ): Promise<void> {
      await db
        .insert(signingKeys)
        .values({
          keyId: key.keyId,
          purpose: key.purpose,
          publicKeyPem: key.publicKeyPem,
          firstUsedAt: now,
          lastUsedAt: now,
        })
        .onConflictDoUpdate({
          target: signingKeys.keyId,
          set: { lastUsedAt: sql`greatest(${signingKeys.lastUsedAt}, excluded.last_used_at)` },
          setWhere: sql`${signingKeys.purpose} = excluded.purpose`,
        });
    },

    /** The keys of `purpose` that signed after `since`, most recently used first. */
    usedSince(purpose: SigningKeyPurpose, since: Date): Promise<RecordedSigningKey[]> {
      return db
        .select({ keyId: signingKeys.keyId, publicKeyPem: signingKeys.publicKeyPem })
        .from(signingKeys)
        .where(and(eq(signingKeys.purpose, purpose), gt(signingKeys.lastUsedAt, since)))
        .orderBy(desc(signingKeys.lastUsedAt), signingKeys.keyId);
    },

    async findPublicKeyPem(purpose: SigningKeyPurpose, keyId: string): Promise<string | undefined> {
      const [row] = await db
        .select({ publicKeyPem: signingKeys.publicKeyPem })
        .from(signingKeys)
        .where(and(eq(signingKeys.purpose, purpose), eq(signingKeys.keyId, keyId)));
      return row?.publicKeyPem;
    },
  };
}
