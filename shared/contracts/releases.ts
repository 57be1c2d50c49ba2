import * as z from 'zod/mini';
import {
  artifactArchitectures,
  artifactFormats,
  cpuArchitectures,
  detectedOperatingSystems,
  operatingSystems,
} from '../downloads/vocabulary.ts';

/**
 * The release catalog's answers (`/account/v1/releases…`, `/api/downloads/suggested`): one schema
 * each, which the route documents and the catalog's types are (shared/downloads/catalog.ts).
 */

/** One downloadable build: what a download button, an analytics label and a redirect point at. */
export const downloadSelectionShape = {
  operatingSystem: z.enum(operatingSystems),
  architecture: z.enum(artifactArchitectures),
  format: z.enum(artifactFormats),
};

export const releaseArtifactSchema = z.object({
  ...downloadSelectionShape,
  description: z.string(),
  fileName: z.string(),
  /** Absolute link to the file host, built at read time from DOWNLOAD_BASE_URL. */
  downloadUri: z.string(),
  sha256: z.string().check(z.describe('Lower-case hex SHA-256 of the file.')),
  sizeBytes: z.int(),
});

/** Every release carries the links that verify it (decision 140): SHA256SUMS, signature, SBOM, key. */
export const releaseSchema = z
  .object({
    version: z.string().check(z.describe('Semantic version, e.g. 3.2.2.')),
    releaseDate: z.string().check(z.describe('YYYY-MM-DD.')),
    prerelease: z.boolean(),
    notes: z
      .array(z.string())
      .check(z.describe('Change-log items; text between backticks is code.')),
    artifacts: z.array(releaseArtifactSchema),
    sha256SumsUrl: z
      .string()
      .check(z.describe('SHA256SUMS of the release files (GNU format, `sha256sum -c` reads it).')),
    signatureUrl: z
      .string()
      .check(
        z.describe('Detached Ed25519 signature of SHA256SUMS: the raw 64 bytes (decision 140).'),
      ),
    sbomUrl: z
      .nullable(z.string())
      .check(z.describe('CycloneDX SBOM (JSON) of the release; null when none was published.')),
    signingKeyUrl: z
      .string()
      .check(z.describe('Public key (PEM) that signed this release’s SHA256SUMS.')),
  })
  .register(z.globalRegistry, { id: 'Release' });

/** The download artifact entity of docs/product-rules.md#data, as `/api/downloads/suggested` returns it. */
export const downloadArtifactSchema = z
  .object({
    ...downloadSelectionShape,
    description: z.string(),
    version: z.object({ label: z.string(), releaseDate: z.string() }),
    downloadUri: z.string(),
    fileName: z.string(),
    sha256: z.string(),
    sizeBytes: z.int(),
  })
  .register(z.globalRegistry, { id: 'DownloadArtifact' });

/** The visitor's platform as the download rules read it; `cpu` is null when nothing tells. */
export const detectedPlatformSchema = z.object({
  os: z.enum(detectedOperatingSystems),
  cpu: z.nullable(z.enum(cpuArchitectures)),
});

export type DownloadSelection = z.output<z.ZodMiniObject<typeof downloadSelectionShape>>;
export type ReleaseArtifact = z.output<typeof releaseArtifactSchema>;
export type Release = z.output<typeof releaseSchema>;
export type DownloadArtifact = z.output<typeof downloadArtifactSchema>;
export type DetectedPlatform = z.output<typeof detectedPlatformSchema>;
