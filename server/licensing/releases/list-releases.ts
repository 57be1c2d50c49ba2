import { compareSelections, type Release } from '#shared/downloads/catalog.ts';
import { downloadUri } from '#shared/downloads/file-names.ts';
import { releaseVerificationLinks } from '#shared/downloads/verification.ts';
import { sortNewestFirst } from '#shared/downloads/versions.ts';
import type { Executor } from '#server/platform/db/database.ts';
import type { ReleaseSigningKey } from './release-signing-key.ts';
import type { ReleaseRepository, StoredRelease } from './release-repository.ts';
import { signUnsignedReleases } from './sign-release.ts';

/** How stored releases become what the API and the page see. */
export interface ReleaseReading {
  /** File host the artifact links point at (DOWNLOAD_BASE_URL, read at read time). */
  downloadBaseUrl: string;
  /** Origin of the SHA256SUMS, signature, SBOM and key links (PUBLIC_BASE_URL). */
  publicBaseUrl: string;
  /** Signs the releases that have no signature yet and returns all as stored (decision 140). */
  signUnsigned(stored: StoredRelease[]): Promise<StoredRelease[]>;
}

export function releaseReading(options: {
  db: Executor;
  downloadBaseUrl: string;
  publicBaseUrl: string;
  signingKey: ReleaseSigningKey;
  clock: () => Date;
}): ReleaseReading {
  const { db, signingKey, clock } = options;
  return {
    downloadBaseUrl: options.downloadBaseUrl,
    publicBaseUrl: options.publicBaseUrl,
    signUnsigned: (stored) => signUnsignedReleases(db, stored, signingKey, clock()),
  };
}

/** A signed release as the API and the page see it: links built from today's hosts. */
export function toRelease(stored: StoredRelease, reading: ReleaseReading): Release {
  if (!stored.signature) throw new Error(`Release ${stored.version} is not signed`);
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
      downloadUri: downloadUri(reading.downloadBaseUrl, artifact.fileName),
      sha256: artifact.sha256,
      sizeBytes: artifact.sizeBytes,
    })),
    ...releaseVerificationLinks(reading.publicBaseUrl, {
      version: stored.version,
      signingKeyId: stored.signature.keyId,
      hasSbom: stored.sbomSha256 !== null,
    }),
  };
}

/** Every published release, newest version first; any unsigned one is signed on this first read. */
export async function listReleases(
  repository: ReleaseRepository,
  reading: ReleaseReading,
): Promise<Release[]> {
  const stored = await reading.signUnsigned(await repository.listAll());
  return sortNewestFirst(stored.map((release) => toRelease(release, reading)));
}
