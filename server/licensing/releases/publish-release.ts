import { selectionLabel } from '#shared/downloads/catalog.ts';
import type { Database } from '#server/platform/db/database.ts';
import type { ReleaseSigningKey } from './release-signing-key.ts';
import {
  createReleaseRepository,
  type NewRelease,
  type ReleaseSbom,
  type StoredArtifact,
} from './release-repository.ts';
import { signRelease } from './sign-release.ts';

export type PublishReleaseResult =
  /** `keyId` signed its SHA256SUMS; `sbomAdded` when an SBOM came with it. */
  | { outcome: 'published'; version: string; keyId: string; sbomAdded: boolean }
  /** The same manifest (and SBOM, if any) again: nothing to do. */
  | { outcome: 'unchanged'; version: string }
  /** The same manifest with an SBOM for a release that had none: the SBOM was attached. */
  | { outcome: 'sbom-added'; version: string }
  /** A published version never changes; `differences` says what the manifest would alter. */
  | { outcome: 'conflict'; version: string; differences: string[] };

function artifactKey(artifact: StoredArtifact): string {
  return selectionLabel(artifact);
}

/** What publishing `next` over the already published `current` would change, one line each. */
export function releaseDifferences(current: NewRelease, next: NewRelease): string[] {
  const differences: string[] = [];
  if (current.releaseDate !== next.releaseDate) {
    differences.push(`releaseDate: published ${current.releaseDate}, manifest ${next.releaseDate}`);
  }
  if (current.prerelease !== next.prerelease) {
    differences.push(`prerelease: published ${current.prerelease}, manifest ${next.prerelease}`);
  }
  if (JSON.stringify(current.notes) !== JSON.stringify(next.notes)) {
    differences.push('notes differ');
  }
  const published = new Map(current.artifacts.map((a) => [artifactKey(a), a]));
  const proposed = new Map(next.artifacts.map((a) => [artifactKey(a), a]));
  for (const [key, artifact] of proposed) {
    const existing = published.get(key);
    if (!existing) {
      differences.push(`artifact ${key}: not in the published release`);
      continue;
    }
    for (const field of ['description', 'fileName', 'sha256', 'sizeBytes'] as const) {
      if (existing[field] !== artifact[field]) {
        differences.push(
          `artifact ${key}: ${field} published ${existing[field]}, manifest ${artifact[field]}`,
        );
      }
    }
  }
  for (const key of published.keys()) {
    if (!proposed.has(key)) differences.push(`artifact ${key}: missing from the manifest`);
  }
  return differences;
}

/**
 * What attaching `next` to a release whose SBOM hash is `current` would change: nothing, adding
 * one to a release without, or a refusal — an SBOM once published is never replaced (decision 141).
 */
export function sbomDifference(
  current: string | null,
  next: ReleaseSbom | undefined,
): 'none' | 'add' | string {
  if (!next || current === next.sha256) return 'none';
  if (current === null) return 'add';
  return `sbom: published sha256 ${current}, given ${next.sha256}`;
}

/**
 * Publishes a release: the first time it is written with its artifacts, the signature of its
 * SHA256SUMS and its SBOM (if given) in one transaction and becomes visible everywhere at once;
 * the same release again changes nothing, except that a release without an SBOM may receive one;
 * a different release (or SBOM) under a published version is refused.
 */
export async function publishRelease(
  db: Database,
  release: NewRelease,
  options: { signingKey: ReleaseSigningKey; now: Date; sbom?: ReleaseSbom },
): Promise<PublishReleaseResult> {
  const { signingKey, now, sbom } = options;
  return db.transaction(async (tx) => {
    const repository = createReleaseRepository(tx);
    const signature = await signRelease(tx, release, signingKey, now);
    if (await repository.insert(release, signature)) {
      if (sbom) await repository.attachSbom(release.version, sbom);
      await repository.announceChange(release.version);
      return {
        outcome: 'published',
        version: release.version,
        keyId: signature.keyId,
        sbomAdded: Boolean(sbom),
      };
    }
    const current = await repository.findByVersion(release.version);
    if (!current) throw new Error(`Release ${release.version} vanished while publishing`);
    const differences = releaseDifferences(current, release);
    const sbomChange = sbomDifference(current.sbomSha256, sbom);
    if (sbomChange !== 'none' && sbomChange !== 'add') differences.push(sbomChange);
    if (differences.length > 0) {
      return { outcome: 'conflict', version: release.version, differences };
    }
    // Signed by an older publisher: sign it now, as any instance would on first read.
    if (!current.signature) await repository.storeSignature(release.version, signature);
    if (sbomChange === 'add' && sbom) {
      if (await repository.attachSbom(release.version, sbom)) {
        await repository.announceChange(release.version);
        return { outcome: 'sbom-added', version: release.version };
      }
      // Another publisher attached one meanwhile: the same one is fine, another is refused.
      const raced = await repository.findByVersion(release.version);
      const change = sbomDifference(raced?.sbomSha256 ?? null, sbom);
      if (change !== 'none') {
        return { outcome: 'conflict', version: release.version, differences: [change] };
      }
    }
    return { outcome: 'unchanged', version: release.version };
  });
}
