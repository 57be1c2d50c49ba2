import { buildSha256Sums } from '#shared/downloads/verification.ts';
import type { Executor } from '#server/platform/db/database.ts';
import { signText, type ReleaseSigningKey } from './release-signing-key.ts';
import { recordSigningKeyUse } from '#server/platform/crypto/signing-keys.ts';
import {
  createReleaseRepository,
  type NewRelease,
  type ReleaseSignature,
  type StoredRelease,
} from './release-repository.ts';

/** A release's SHA256SUMS: its artifacts' checksums, the bytes the signature covers. */
export function releaseSha256Sums(release: {
  artifacts: ReadonlyArray<Pick<NewRelease['artifacts'][number], 'fileName' | 'sha256'>>;
}): string {
  return buildSha256Sums(release.artifacts);
}

/**
 * Signs a release's SHA256SUMS with `key`, recording the key's public half first (in the same
 * executor), so the signature never names a key that is not published.
 */
export async function signRelease(
  db: Executor,
  release: Pick<NewRelease, 'artifacts'>,
  key: ReleaseSigningKey,
  now: Date,
): Promise<ReleaseSignature> {
  await recordSigningKeyUse(db, key, now);
  return { keyId: key.keyId, value: signText(releaseSha256Sums(release), key), signedAt: now };
}

/**
 * Signs the releases among `stored` that have no signature yet (published before signing
 * existed, or by an older version of the admin command) and returns them as stored afterwards.
 * Safe with several instances: a signature is written only where none is, and re-read.
 */
export async function signUnsignedReleases(
  db: Executor,
  stored: StoredRelease[],
  key: ReleaseSigningKey,
  now: Date,
): Promise<StoredRelease[]> {
  if (stored.every((release) => release.signature !== null)) return stored;
  const repository = createReleaseRepository(db);
  const result: StoredRelease[] = [];
  for (const release of stored) {
    if (release.signature) {
      result.push(release);
      continue;
    }
    await repository.storeSignature(release.version, await signRelease(db, release, key, now));
    const current = await repository.findByVersion(release.version);
    if (current) result.push(current);
  }
  return result;
}

/** Signs every published release that has no signature yet (at server start). */
export async function signPublishedReleases(
  db: Executor,
  key: ReleaseSigningKey,
  now: Date,
): Promise<void> {
  await signUnsignedReleases(db, await createReleaseRepository(db).listAll(), key, now);
}
