import type { ReleaseCatalogReader } from '#shared/downloads/versions.ts';
import { findLatestRelease } from './find-latest-release.ts';
import { listReleases, releaseReading, type ReleaseReading } from './list-releases.ts';
import type { LicensingPorts } from '#server/licensing/licensing-ports.ts';
import { createReleaseRepository, type ReleaseRepository } from './release-repository.ts';

export type { ReleaseCatalogReader };

export function createReleaseCatalogReader(
  repository: ReleaseRepository,
  reading: ReleaseReading,
): ReleaseCatalogReader {
  return {
    listReleases: () => listReleases(repository, reading),
    findLatestRelease: (query) => findLatestRelease(repository, reading, query),
  };
}

/** How the server reads the catalog: its hosts, and its release-signing key for unsigned releases. */
export function releaseReadingFor(deps: LicensingPorts): ReleaseReading {
  return releaseReading({
    db: deps.database.db,
    downloadBaseUrl: deps.env.DOWNLOAD_BASE_URL,
    publicBaseUrl: deps.env.PUBLIC_BASE_URL,
    signingKey: deps.releaseSigningKey,
    clock: deps.clock,
  });
}

/** The catalog reader the server hands to the site's loaders. */
export function releaseCatalogReaderFor(deps: LicensingPorts): ReleaseCatalogReader {
  return createReleaseCatalogReader(
    createReleaseRepository(deps.database.db),
    releaseReadingFor(deps),
  );
}
