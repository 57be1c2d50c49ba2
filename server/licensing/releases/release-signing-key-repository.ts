import { eq } from 'drizzle-orm';
import type { Executor } from '#server/platform/db/database.ts';
import { releaseSigningKeys } from '#server/platform/db/schema.ts';

/** The public halves of the keys that signed releases, kept for good (decision 140). */
export function createReleaseSigningKeyRepository(db: Executor) {
  return {
    /** Records a key the first time an instance takes it into use; later uses change nothing. */
    async recordKey(keyId: string, publicKeyPem: string, now: Date): Promise<void> {
      await db
        .insert(releaseSigningKeys)
        .values({ keyId, publicKeyPem, firstUsedAt: now })
        .onConflictDoNothing({ target: releaseSigningKeys.keyId });
    },

    async findPublicKeyPem(keyId: string): Promise<string | undefined> {
      const [row] = await db
        .select({ publicKeyPem: releaseSigningKeys.publicKeyPem })
        .from(releaseSigningKeys)
        .where(eq(releaseSigningKeys.keyId, keyId));
      return row?.publicKeyPem;
    },
  };
}
