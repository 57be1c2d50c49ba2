import { desc, gt, sql } from 'drizzle-orm';
import type { Database } from '#server/platform/db/database.ts';
import { licenceSigningKeys } from '#server/platform/db/schema.ts';

/** The public halves of the keys that signed certificates, with when each last signed. */
export function createSigningKeyRepository(db: Database) {
  return {
    /** Records a use of the key now: its first, or a later one (never moving backwards). */
    async recordUse(keyId: string, publicX: string, now: Date): Promise<void> {
      await db
        .insert(licenceSigningKeys)
        .values({ keyId, publicX, firstUsedAt: now, lastUsedAt: now })
        .onConflictDoUpdate({
          target: licenceSigningKeys.keyId,
          set: {
            lastUsedAt: sql`greatest(${licenceSigningKeys.lastUsedAt}, excluded.last_used_at)`,
          },
        });
    },
    /** Keys that signed after `since`, most recently used first. */
    usedSince(since: Date): Promise<Array<{ keyId: string; publicX: string }>> {
      return db
        .select({ keyId: licenceSigningKeys.keyId, publicX: licenceSigningKeys.publicX })
        .from(licenceSigningKeys)
        .where(gt(licenceSigningKeys.lastUsedAt, since))
        .orderBy(desc(licenceSigningKeys.lastUsedAt), licenceSigningKeys.keyId);
    },
  };
}
