import { compareSelections, type Release } from '#shared/downloads/catalog.ts';
import { downloadUri } from '#shared/downloads/file-names.ts';
import { sortNewestFirst } from '#shared/downloads/versions.ts';
import type { ReleaseRepository, StoredRelease } from './release-repository.ts';

/** A stored release as the API and the page see it: links built from today's file host. */
export function toRelease(stored: StoredRelease, downloadBaseUrl: string): Release {
  return {
    version: stored.version,
    releaseDate: stored.releaseDate,
    prerelease: stored.prerelease,
    notes: stored.notes,
    artifacts: [...stored.artifacts].sort(compareSelections).map((artifact) => ({
      operatingSystem: artifact.operatingSystem,
      architecture: artifact.architecture,
      format: artifact.format,
      description: artifact.description,
      fileName: artifact.fileName,
      downloadUri: downloadUri(downloadBaseUrl, artifact.fileName),
      sha256: artifact.sha256,
      sizeBytes: artifact.sizeBytes,
    })),
  };
}

/** Every published release, newest version first. */
export async function listReleases(
  repository: ReleaseRepository,
  downloadBaseUrl: string,
): Promise<Release[]> {
  const stored = await repository.listAll();
  return sortNewestFirst(stored.map((release) => toRelease(release, downloadBaseUrl)));
}
