import type { Release } from '../../shared/downloads/catalog.ts';
import type { LatestReleaseQuery } from '../../shared/downloads/versions.ts';
import { findLatestRelease } from './find-latest-release.ts';
import { listReleases } from './list-releases.ts';
import type { AppDeps } from '../deps.ts';
import { createReleaseRepository, type ReleaseRepository } from './release-repository.ts';

/** The read side of the release catalog, as the site's loaders get it (`SiteServices.releases`). */
export interface ReleaseCatalogReader {
  /** Every release, newest version first, with download links. */
  listReleases(): Promise<Release[]>;
  /** The newest stable release unless the query says otherwise. */
  findLatestRelease(query?: LatestReleaseQuery): Promise<Release | undefined>;
}

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
