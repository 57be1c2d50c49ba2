import { Hono, type Context } from 'hono';
import { z } from 'zod';
import {
  CURRENT_SIGNING_KEY_PATH,
  SBOM_FILE,
  SHA256SUMS_FILE,
  SIGNATURE_FILE,
  SIGNING_KEY_ID_PATTERN,
} from '#shared/downloads/verification.ts';
import { isVersion } from '#shared/downloads/versions.ts';
import type { LicensingPorts } from '#server/licensing/licensing-ports.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import { releaseReadingFor } from './release-catalog.ts';
import { createReleaseRepository, type StoredRelease } from './release-repository.ts';
import { readQuery } from './release-routes.ts';
import { createReleaseSigningKeyRepository } from './release-signing-key-repository.ts';
import { releaseSha256Sums } from './sign-release.ts';
import {
  errorBodySchema,
  invalidRequestErrorSchema,
} from '#server/platform/api-doc/common-errors.ts';
import { defineRoute, defineRoutes } from '#server/platform/api-doc/define-route.ts';

/** A version's files never change once they exist (decision 140); a day keeps rotations simple. */
const IMMUTABLE_FILE_CACHE = 'public, max-age=86400';
/** The current key changes on a rotation: shared caches pick the new one up within minutes. */
const CURRENT_KEY_CACHE = 'public, max-age=300';
/** An unknown version may be published any minute, as on the other release routes. */
const NOT_FOUND_CACHE = 'public, max-age=60';
const PEM_TYPE = 'application/x-pem-file';

type Ctx = Context<AppEnv>;

function notFound(c: Ctx, error: string, message: string) {
  c.header('Cache-Control', NOT_FOUND_CACHE);
  return c.json({ Error: error, message }, 404);
}

const getReleaseSha256SumsRoute = defineRoute({
  method: 'get',
  path: `/downloads/:version/${SHA256SUMS_FILE}`,
  auth: 'public',
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
});

const getReleaseSignatureRoute = defineRoute({
  method: 'get',
  path: `/downloads/:version/${SIGNATURE_FILE}`,
  auth: 'public',
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
});

const getReleaseSbomRoute = defineRoute({
  method: 'get',
  path: `/downloads/:version/${SBOM_FILE}`,
  auth: 'public',
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
});

const getReleaseSigningKeyRoute = defineRoute({
  method: 'get',
  path: CURRENT_SIGNING_KEY_PATH,
  auth: 'public',
  operationId: 'getReleaseSigningKey',
  tag: 'Releases',
  origin: 'site',
  summary: 'The public key (PEM) new releases are signed with',
  responses: {
    200: { description: 'The key.', contentType: 'application/x-pem-file', schema: z.string() },
    400: { description: 'Query parameters were sent.', schema: invalidRequestErrorSchema },
  },
});

const getReleaseSigningKeyByIdRoute = defineRoute({
  method: 'get',
  path: '/downloads/release-signing-keys/:file',
  auth: 'public',
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
});

/**
 * What a security team verifies a download with: each release's SHA256SUMS, its detached Ed25519
 * signature and its CycloneDX SBOM, and the public keys (decisions 140 and 141). Public, cacheable,
 * GET and HEAD only; registered before the site's catch-all.
 */
export const releaseFileRoutes = defineRoutes(
  [
    getReleaseSha256SumsRoute,
    getReleaseSignatureRoute,
    getReleaseSbomRoute,
    getReleaseSigningKeyRoute,
    getReleaseSigningKeyByIdRoute,
  ],
  (deps: LicensingPorts) => {
    const repository = createReleaseRepository(deps.database.db);
    const keys = createReleaseSigningKeyRepository(deps.database.db);
    const reading = releaseReadingFor(deps);
    const routes = new Hono<AppEnv>();

    /** The release, signed (on this first read if it never was), or an answer saying why not. */
    async function signedRelease(c: Ctx): Promise<StoredRelease | Response> {
      const version = c.req.param('version') ?? '';
      const stored = isVersion(version) ? await repository.findByVersion(version) : undefined;
      if (!stored)
        return notFound(c, 'ReleaseNotFound', `No release ${version} has been published.`);
      const [signed] = await reading.signUnsigned([stored]);
      return signed ?? stored;
    }

    function rejectQuery(c: Ctx): Response | undefined {
      const query = readQuery(c, z.object({}), []);
      if (query.ok) return undefined;
      return c.json({ Error: 'InvalidRequest', message: query.message }, 400);
    }

    getReleaseSigningKeyRoute.handle(routes, (c) => {
      const refused = rejectQuery(c);
      if (refused) return refused;
      c.header('Content-Type', PEM_TYPE);
      c.header('Cache-Control', CURRENT_KEY_CACHE);
      c.header('X-Key-Id', deps.releaseSigningKey.keyId);
      return c.body(deps.releaseSigningKey.publicKeyPem);
    });

    getReleaseSigningKeyByIdRoute.handle(routes, async (c) => {
      const refused = rejectQuery(c);
      if (refused) return refused;
      const keyId = /^(.*)\.pem$/.exec(c.req.param('file'))?.[1] ?? '';
      const pem = SIGNING_KEY_ID_PATTERN.test(keyId)
        ? await keys.findPublicKeyPem(keyId)
        : undefined;
      if (!pem)
        return notFound(c, 'SigningKeyNotFound', `No release was signed with key ${keyId}.`);
      c.header('Content-Type', PEM_TYPE);
      c.header('Cache-Control', IMMUTABLE_FILE_CACHE);
      return c.body(pem);
    });

    getReleaseSha256SumsRoute.handle(routes, async (c) => {
      const refused = rejectQuery(c);
      if (refused) return refused;
      const release = await signedRelease(c);
      if (release instanceof Response) return release;
      c.header('Content-Type', 'text/plain; charset=utf-8');
      c.header('Cache-Control', IMMUTABLE_FILE_CACHE);
      return c.body(releaseSha256Sums(release));
    });

    getReleaseSignatureRoute.handle(routes, async (c) => {
      const refused = rejectQuery(c);
      if (refused) return refused;
      const release = await signedRelease(c);
      if (release instanceof Response) return release;
      if (!release.signature) throw new Error(`Release ${release.version} could not be signed`);
      c.header('Content-Type', 'application/octet-stream');
      c.header('Cache-Control', IMMUTABLE_FILE_CACHE);
      c.header('X-Key-Id', release.signature.keyId);
      return c.body(new Uint8Array(Buffer.from(release.signature.value, 'base64')));
    });

    getReleaseSbomRoute.handle(routes, async (c) => {
      const refused = rejectQuery(c);
      if (refused) return refused;
      const version = c.req.param('version');
      const sbom = isVersion(version) ? await repository.findSbom(version) : undefined;
      if (!sbom) {
        const known = isVersion(version) && (await repository.findByVersion(version));
        return known
          ? notFound(c, 'SbomNotFound', `Release ${version} has no SBOM (yet).`)
          : notFound(c, 'ReleaseNotFound', `No release ${version} has been published.`);
      }
      c.header('Content-Type', 'application/vnd.cyclonedx+json');
      c.header('Cache-Control', IMMUTABLE_FILE_CACHE);
      return c.body(sbom.document);
    });

    // Read-only files: other methods get a JSON 405 instead of falling through to the site.
    routes.on(
      ['POST', 'PUT', 'PATCH', 'DELETE'],
      [
        CURRENT_SIGNING_KEY_PATH,
        '/downloads/release-signing-keys/:file',
        `/downloads/:version/${SHA256SUMS_FILE}`,
        `/downloads/:version/${SIGNATURE_FILE}`,
        `/downloads/:version/${SBOM_FILE}`,
      ],
      (c) => {
        c.header('Allow', 'GET, HEAD');
        return c.json(
          { Error: 'MethodNotAllowed', message: `${c.req.method} is not allowed here; use GET.` },
          405,
        );
      },
    );
    return routes;
  },
);
