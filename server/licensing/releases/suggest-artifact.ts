import {
  findArtifact,
  toDownloadArtifact,
  type DownloadArtifact,
  type DownloadSelection,
} from '#shared/downloads/catalog.ts';
import type { DetectedPlatform } from '#shared/downloads/platform.ts';
import { suggestDownload } from '#shared/downloads/suggest-download.ts';
import { findLatestRelease } from './find-latest-release.ts';
import type { ReleaseReading } from './list-releases.ts';
import type { ReleaseRepository } from './release-repository.ts';

export type SuggestArtifactResult =
  | { ok: true; selection: DownloadSelection; artifact: DownloadArtifact }
  | { ok: false; code: 'NO_RELEASE' | 'NO_SUCH_ARTIFACT'; selection: DownloadSelection };

/** The artifact of the latest stable release that the suggestion rules pick for a platform. */
export async function suggestArtifact(
  repository: ReleaseRepository,
  reading: ReleaseReading,
  platform: DetectedPlatform,
): Promise<SuggestArtifactResult> {
  const selection = suggestDownload(platform);
  const release = await findLatestRelease(repository, reading);
  // Checked in this order: nothing published at all, then a release that lacks this build.
  if (!release) return { ok: false, code: 'NO_RELEASE', selection };
  const artifact = findArtifact(release, selection);
  if (!artifact) return { ok: false, code: 'NO_SUCH_ARTIFACT', selection };
  return { ok: true, selection, artifact: toDownloadArtifact(release, artifact) };
}
