import type { Release } from '#shared/downloads/catalog.ts';
import { pickLatestRelease, type LatestReleaseQuery } from '#shared/downloads/versions.ts';
import { listReleases, type ReleaseReading } from './list-releases.ts';
import type { ReleaseRepository } from './release-repository.ts';

/** The newest release the query admits (stable only unless asked), or `undefined`. */
export async function findLatestRelease(
  repository: ReleaseRepository,
  reading: ReleaseReading,
  query: LatestReleaseQuery = {},
): Promise<Release | undefined> {
  return pickLatestRelease(await listReleases(repository, reading), query);
}
