import type { Executor } from '#server/platform/db/database.ts';
import {
  generateLicenceKey,
  hashLicenceKey,
  licenceKeyHint,
} from '#server/licensing/licences/licence-key.ts';
import {
  createLicenceRepository,
  type Licence,
} from '#server/licensing/licences/licence-repository.ts';

/**
 * Gives a licence a new key inside the caller's transaction and returns it (its only
 * appearance); every access token but those in `keepTokenIds` ends with the old key (decision
 * 212). The update is conditional on the key hash the caller read, so of two concurrent
 * replacements only one succeeds; undefined for the other.
 */
export async function rotateLicenceKey(
  tx: Executor,
  secretKey: string,
  licence: Pick<Licence, 'id' | 'keyHash'>,
  now: Date,
  keepTokenIds: readonly string[] = [],
): Promise<{ key: string; licence: Licence; endedTokens: number } | undefined> {
  const key = generateLicenceKey();
  const updated = await createLicenceRepository(tx).replaceKeyHash(
    licence.id,
    licence.keyHash,
    { keyHash: hashLicenceKey(secretKey, key), keyHint: licenceKeyHint(key) },
    now,
    keepTokenIds,
  );
  return updated && { key, ...updated };
}
