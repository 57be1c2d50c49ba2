import { z } from 'zod';
import {
  artifactArchitectures,
  artifactFormats,
  operatingSystems,
  type DownloadArtifact,
  type Release,
} from '#shared/downloads/catalog.ts';
import { RELEASE_FEED_PATH } from '#shared/downloads/paths.ts';
import {
  CURRENT_SIGNING_KEY_PATH,
  SBOM_FILE,
  SHA256SUMS_FILE,
  SIGNATURE_FILE,
} from '#shared/downloads/verification.ts';
import {
  cpuArchitectures,
  detectedOperatingSystems,
  type DetectedPlatform,
} from '#shared/downloads/platform.ts';
import { defineApiDocs } from '#server/platform/api-doc/api-doc.ts';
import {
  errorBodySchema,
  invalidRequestErrorSchema,
} from '#server/platform/api-doc/common-errors.ts';
import type { SameType } from '#server/platform/api-doc/same-type.ts';

const selection = {
  operatingSystem: z.enum(operatingSystems),
  architecture: z.enum(artifactArchitectures),
  format: z.enum(artifactFormats),
};

const releaseSchema = z
  .object({
    version: z.string().describe('Semantic version, e.g. 3.2.2.'),
    releaseDate: z.string().describe('YYYY-MM-DD.'),
    prerelease: z.boolean(),
    notes: z.array(z.string()).describe('Change-log items; text between backticks is code.'),
    artifacts: z.array(
      z.object({
        ...selection,
        description: z.string(),
        fileName: z.string(),
        downloadUri: z.string(),
        sha256: z.string().describe('Lower-case hex SHA-256 of the file.'),
        sizeBytes: z.number().int(),
      }),
    ),
    sha256SumsUrl: z
      .string()
      .describe('SHA256SUMS of the release files (GNU format, `sha256sum -c` reads it).'),
    signatureUrl: z
      .string()
      .describe('Detached Ed25519 signature of SHA256SUMS: the raw 64 bytes (decision 140).'),
    sbomUrl: z
      .string()
      .nullable()
      .describe('CycloneDX SBOM (JSON) of the release; null when none was published.'),
    signingKeyUrl: z.string().describe('Public key (PEM) that signed this release’s SHA256SUMS.'),
  })
  .meta({ id: 'Release' });

const downloadArtifactSchema = z
  .object({
    ...selection,
    description: z.string(),
    version: z.object({ label: z.string(), releaseDate: z.string() }),
    downloadUri: z.string(),
    fileName: z.string(),
    sha256: z.string(),
    sizeBytes: z.number().int(),
  })
  .meta({ id: 'DownloadArtifact' });

const detectedPlatformSchema = z.object({
  os: z.enum(detectedOperatingSystems),
  cpu: z.enum(cpuArchitectures).nullable(),
});

// The documented shapes are the catalog's own types: this fails to compile if they drift.
const releaseMatches: SameType<z.output<typeof releaseSchema>, Release> = true;
const artifactMatches: SameType<z.output<typeof downloadArtifactSchema>, DownloadArtifact> = true;
const platformMatches: SameType<z.output<typeof detectedPlatformSchema>, DetectedPlatform> = true;
void [releaseMatches, artifactMatches, platformMatches];

const latestQuery = z.object({
  versionFilter: z
    .string()
    .optional()
    .describe(
      'A version or prefix: 3, 3.2, 3.2.x, 3.2.2 or 3.3.0-beta.1; empty or "latest" = any.',
    ),
  includePrerelease: z.enum(['true', 'false']).optional(),
});

const notFound = {
  description: 'ReleaseNotFound or ArtifactNotFound.',
  schema: errorBodySchema,
};

export const releaseApiDocs = defineApiDocs([
  {
    method: 'get',
    path: '/api/releases',
    operationId: 'listReleases',
    tag: 'Releases',
    origin: 'site',
    summary: 'Every published release, newest first',
    responses: {
      200: {
        description: 'The catalog.',
        schema: z.object({ releases: z.array(releaseSchema) }),
      },
      400: { description: 'Query parameters were sent.', schema: invalidRequestErrorSchema },
    },
  },
  {
    method: 'get',
    path: '/api/releases/latest',
    operationId: 'getLatestRelease',
    tag: 'Releases',
    origin: 'site',
    summary: 'The latest release matching an optional version filter',
    request: { query: latestQuery },
    responses: {
      200: { description: 'The release.', schema: releaseSchema },
      400: { description: 'A bad or unknown query parameter.', schema: invalidRequestErrorSchema },
      404: notFound,
    },
  },
  {
    method: 'get',
    path: '/api/downloads/suggested',
    operationId: 'getSuggestedDownload',
    tag: 'Releases',
    origin: 'site',
    summary:
      'The artifact suggested for the caller’s platform (docs/product-rules.md#constants rules)',
    description:
      'The platform comes from `os` and `arch` when given, otherwise from the User-Agent and client hints.',
    request: {
      query: z.object({
        os: z.string().optional().describe('windows, macos or linux (aliases accepted).'),
        arch: z.string().optional().describe('A CPU architecture such as amd64 or arm64.'),
      }),
    },
    responses: {
      200: {
        description: 'The suggestion.',
        schema: z.object({ detected: detectedPlatformSchema, artifact: downloadArtifactSchema }),
      },
      400: { description: 'A bad or unknown query parameter.', schema: invalidRequestErrorSchema },
      404: notFound,
    },
  },
  {
    method: 'get',
    path: '/download/latest/:os/:arch/:format',
    operationId: 'downloadLatestArtifact',
    tag: 'Releases',
    origin: 'site',
    summary: 'Redirect to the file of the latest release for a platform',
    request: {
      pathParams: z.object({
        os: z.string().describe('windows, macos or linux.'),
        arch: z.enum(artifactArchitectures),
        format: z.enum(artifactFormats),
      }),
      query: latestQuery,
    },
    responses: {
      302: { description: 'Redirect to the file host (Location header).' },
      400: { description: 'Unknown platform, format or query.', schema: invalidRequestErrorSchema },
      404: notFound,
    },
  },
  {
    method: 'get',
    path: RELEASE_FEED_PATH,
    operationId: 'getReleaseFeed',
    tag: 'Releases',
    origin: 'site',
    summary: 'Atom feed of releases',
    responses: {
      200: { description: 'The feed.', contentType: 'application/atom+xml', schema: z.string() },
      400: { description: 'Query parameters were sent.', schema: invalidRequestErrorSchema },
    },
  },
  {
    method: 'get',
    path: `/downloads/:version/${SHA256SUMS_FILE}`,
    operationId: 'getReleaseSha256Sums',
    tag: 'Releases',
    origin: 'site',
    summary: 'SHA256SUMS of a release’s files (decision 140)',
    description:
      'One `<sha256>  <file name>` line per file, sorted by file name: `sha256sum -c` reads it.',
    request: { pathParams: z.object({ version: z.string() }) },
    responses: {
      200: { description: 'The checksums.', contentType: 'text/plain', schema: z.string() },
      400: { description: 'Query parameters were sent.', schema: invalidRequestErrorSchema },
      404: { description: 'ReleaseNotFound.', schema: errorBodySchema },
    },
  },
  {
    method: 'get',
    path: `/downloads/:version/${SIGNATURE_FILE}`,
    operationId: 'getReleaseSignature',
    tag: 'Releases',
    origin: 'site',
    summary: 'Detached Ed25519 signature of the release’s SHA256SUMS',
    description:
      'The raw 64 bytes; `X-Key-Id` names the key (`/downloads/release-signing-keys/{keyId}.pem`).',
    request: { pathParams: z.object({ version: z.string() }) },
    responses: {
      200: {
        description: 'The signature.',
        contentType: 'application/octet-stream',
        schema: z.string(),
      },
      400: { description: 'Query parameters were sent.', schema: invalidRequestErrorSchema },
      404: { description: 'ReleaseNotFound.', schema: errorBodySchema },
    },
  },
  {
    method: 'get',
    path: `/downloads/:version/${SBOM_FILE}`,
    operationId: 'getReleaseSbom',
    tag: 'Releases',
    origin: 'site',
    summary: 'CycloneDX SBOM of a release, as published (decision 141)',
    request: { pathParams: z.object({ version: z.string() }) },
    responses: {
      200: {
        description: 'The SBOM.',
        contentType: 'application/vnd.cyclonedx+json',
        schema: z.string(),
      },
      400: { description: 'Query parameters were sent.', schema: invalidRequestErrorSchema },
      404: { description: 'ReleaseNotFound or SbomNotFound.', schema: errorBodySchema },
    },
  },
  {
    method: 'get',
    path: CURRENT_SIGNING_KEY_PATH,
    operationId: 'getReleaseSigningKey',
    tag: 'Releases',
    origin: 'site',
    summary: 'The public key (PEM) new releases are signed with',
    responses: {
      200: { description: 'The key.', contentType: 'application/x-pem-file', schema: z.string() },
      400: { description: 'Query parameters were sent.', schema: invalidRequestErrorSchema },
    },
  },
  {
    method: 'get',
    path: '/downloads/release-signing-keys/:file',
    operationId: 'getReleaseSigningKeyById',
    tag: 'Releases',
    origin: 'site',
    summary: 'A public key (PEM) that signed releases, by id: `{keyId}.pem`',
    request: { pathParams: z.object({ file: z.string().describe('`{keyId}.pem`') }) },
    responses: {
      200: { description: 'The key.', contentType: 'application/x-pem-file', schema: z.string() },
      400: { description: 'Query parameters were sent.', schema: invalidRequestErrorSchema },
      404: { description: 'SigningKeyNotFound.', schema: errorBodySchema },
    },
  },
]);
