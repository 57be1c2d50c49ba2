import { selectionLabel } from '#shared/downloads/catalog.ts';
import type { Database } from '../db/database.ts';
import {
  createReleaseRepository,
  type NewRelease,
  type StoredArtifact,
} from './release-repository.ts';

export type PublishReleaseResult =
  | { outcome: 'published'; version: string }
  /** The same manifest again: nothing to do. */
  | { outcome: 'unchanged'; version: string }
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
 * Publishes a release: the first time it is written with its artifacts in one transaction and
 * becomes visible everywhere at once; the same release again changes nothing; a different release
 * under a published version is refused.
 */
export async function publishRelease(
  db: Database,
  release: NewRelease,
): Promise<PublishReleaseResult> {
  return db.transaction(async (tx) => {
    const repository = createReleaseRepository(tx);
    if (await repository.insert(release)) {
      await repository.announceChange(release.version);
      return { outcome: 'published', version: release.version };
    }
    const current = await repository.findByVersion(release.version);
    if (!current) throw new Error(`Release ${release.version} vanished while publishing`);
    const differences = releaseDifferences(current, release);
    return differences.length === 0
      ? { outcome: 'unchanged', version: release.version }
      : { outcome: 'conflict', version: release.version, differences };
  });
}
