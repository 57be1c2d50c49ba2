import type { ReleaseCatalogReader } from '#shared/downloads/versions.ts';
import { findLatestRelease } from './find-latest-release.ts';
import { listReleases } from './list-releases.ts';
import type { AppDeps } from '../deps.ts';
import { createReleaseRepository, type ReleaseRepository } from './release-repository.ts';

export type { ReleaseCatalogReader };

export function createReleaseCatalogReader(
  repository: ReleaseRepository,
  downloadBaseUrl: string,
): ReleaseCatalogReader {
  return {
    listReleases: () => listReleases(repository, downloadBaseUrl),
    findLatestRelease: (query) => findLatestRelease(repository, downloadBaseUrl, query),
  };
}

/** The catalog reader the server hands to the site's loaders. */
export function releaseCatalogReaderFor(deps: AppDeps): ReleaseCatalogReader {
  return createReleaseCatalogReader(
    createReleaseRepository(deps.database.db),
    deps.env.DOWNLOAD_BASE_URL,
  );
}
