import { and, eq } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { licences } from '../db/schema.ts';
import { generateLicenceKey, hashLicenceKey, licenceKeyHint } from '../licences/licence-key.ts';
import type { Licence } from '../licences/licence-repository.ts';

/**
 * Gives a licence a new key inside the caller's transaction and returns it (its only
 * appearance). The update is conditional on the key hash the caller read, so of two concurrent
 * replacements only one succeeds; undefined for the other.
 */
export async function rotateLicenceKey(
  tx: Executor,
  secretKey: string,
  licence: Pick<Licence, 'id' | 'keyHash'>,
  now: Date,
): Promise<{ key: string; licence: Licence } | undefined> {
  const key = generateLicenceKey();
  const [updated] = await tx
    .update(licences)
    .set({ keyHash: hashLicenceKey(secretKey, key), keyHint: licenceKeyHint(key), updatedAt: now })
    .where(and(eq(licences.id, licence.id), eq(licences.keyHash, licence.keyHash)))
    .returning();
  return updated && { key, licence: updated };
}
