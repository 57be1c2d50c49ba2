import { Hono, type Context } from 'hono';
import { z } from 'zod';
import {
  artifactArchitectures,
  artifactFormats,
  findArtifact,
  operatingSystemNames,
  parseOperatingSystem,
} from '#shared/downloads/catalog.ts';
import {
  cpuArchitectureNames,
  detectPlatform,
  parseCpuArchitecture,
  type DetectedPlatform,
} from '#shared/downloads/platform.ts';
import {
  detectedPlatformSchema,
  downloadArtifactSchema,
  releaseSchema,
} from '#shared/contracts/releases.ts';
import { RELEASE_FEED_PATH } from '#shared/downloads/paths.ts';
import { parseVersionFilter, type LatestReleaseQuery } from '#shared/downloads/versions.ts';
import type { LicensingPorts } from '#server/licensing/licensing-ports.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import { findLatestRelease } from './find-latest-release.ts';
import { listReleases } from './list-releases.ts';
import { releaseReadingFor } from './release-catalog.ts';
import { renderReleaseFeed } from './release-feed.ts';
import { createReleaseRepository } from './release-repository.ts';
import { suggestArtifact } from './suggest-artifact.ts';
import {
  errorBodySchema,
  invalidRequestErrorSchema,
} from '#server/platform/api-doc/common-errors.ts';
import { defineRoute, defineRoutes } from '#server/platform/api-doc/define-route.ts';

/** Client hints the download suggestion reads; browsers send the last two only after `Accept-CH`. */
export const CLIENT_HINT_HEADERS = ['Sec-CH-UA-Platform', 'Sec-CH-UA-Arch', 'Sec-CH-UA-Bitness'];
const REQUESTED_CLIENT_HINTS = 'Sec-CH-UA-Platform, Sec-CH-UA-Arch, Sec-CH-UA-Bitness';
// Publishing must show up quickly everywhere, so shared caches keep catalog answers one minute at most.
const PUBLIC_CACHE = 'public, max-age=60';

type Ctx = Context<AppEnv>;

function badRequest(c: Ctx, message: string) {
  return c.json({ Error: 'InvalidRequest', message }, 400);
}

export type QueryResult<T> = { ok: true; value: T } | { ok: false; message: string };

/** Validates a query string against a zod object: one value per name, no unknown names. */
export function readQuery<T>(
  c: Ctx,
  schema: z.ZodType<T>,
  allowed: readonly string[],
): QueryResult<T> {
  const all = c.req.queries();
  const single: Record<string, string> = {};
  for (const [name, values] of Object.entries(all)) {
    if (!allowed.includes(name)) {
      const expected = allowed.length > 0 ? `Allowed: ${allowed.join(', ')}.` : 'None are allowed.';
      return { ok: false, message: `Unknown query parameter "${name}". ${expected}` };
    }
    if (values.length > 1) {
      return { ok: false, message: `Query parameter "${name}" may be given only once.` };
    }
    single[name] = values[0] ?? '';
  }
  const result = schema.safeParse(single);
  if (!result.success) {
    const issue = result.error.issues[0];
    const name = issue?.path.join('.') ?? 'query';
    return { ok: false, message: `Query parameter "${name}": ${issue?.message ?? 'invalid'}.` };
  }
  return { ok: true, value: result.data };
}

const booleanText = z
  .enum(['true', 'false'], { error: 'must be true or false' })
  .transform((value) => value === 'true');

const latestQuerySchema = z
  .object({
    versionFilter: z
      .string()
      .optional()
      .transform((value, ctx) => {
        // Empty or "latest" means no filter, so scripts can pass an unset input straight through.
        if (value === undefined || value === '' || value.toLowerCase() === 'latest')
          return undefined;
        const filter = parseVersionFilter(value);
        if (!filter) {
          ctx.addIssue({
            code: 'custom',
            message:
              'must be a version or version prefix such as 3, 3.2, 3.2.x, 3.2.2 or 3.3.0-beta.1',
          });
          return z.NEVER;
        }
        return filter;
      }),
    includePrerelease: booleanText.optional(),
  })
  .transform((query): LatestReleaseQuery => query);
const latestQueryNames = ['versionFilter', 'includePrerelease'] as const;

function describeQuery(query: LatestReleaseQuery, raw: Record<string, string>): string {
  const filter = query.versionFilter ? `version filter ${raw.versionFilter ?? ''}` : 'any version';
  return `${filter}, ${query.includePrerelease ? 'pre-releases included' : 'stable releases only'}`;
}

function platformFromRequest(c: Ctx): DetectedPlatform {
  return detectPlatform(c.req.header('user-agent'), {
    platform: c.req.header('sec-ch-ua-platform'),
    architecture: c.req.header('sec-ch-ua-arch'),
    bitness: c.req.header('sec-ch-ua-bitness'),
  });
}

const suggestedQuerySchema = z.object({
  os: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const os = parseOperatingSystem(value);
      if (!os) {
        ctx.addIssue({
          code: 'custom',
          message: `must be one of ${operatingSystemNames.join(', ')}`,
        });
        return z.NEVER;
      }
      return os;
    }),
  arch: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const cpu = parseCpuArchitecture(value);
      if (!cpu) {
        ctx.addIssue({
          code: 'custom',
          message: `must be one of ${cpuArchitectureNames.join(', ')}`,
        });
        return z.NEVER;
      }
      return cpu;
    }),
});

const artifactArchitectureSchema = z.enum(artifactArchitectures);
const artifactFormatSchema = z.enum(artifactFormats);

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

const listReleasesRoute = defineRoute({
  method: 'get',
  path: '/api/releases',
  auth: 'public',
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
});

const getLatestReleaseRoute = defineRoute({
  method: 'get',
  path: '/api/releases/latest',
  auth: 'public',
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
});

const getSuggestedDownloadRoute = defineRoute({
  method: 'get',
  path: '/api/downloads/suggested',
  auth: 'public',
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
});

const downloadLatestArtifactRoute = defineRoute({
  method: 'get',
  path: '/download/latest/:os/:arch/:format',
  auth: 'public',
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
});

const getReleaseFeedRoute = defineRoute({
  method: 'get',
  path: RELEASE_FEED_PATH,
  auth: 'public',
  operationId: 'getReleaseFeed',
  tag: 'Releases',
  origin: 'site',
  summary: 'Atom feed of releases',
  responses: {
    200: { description: 'The feed.', contentType: 'application/atom+xml', schema: z.string() },
    400: { description: 'Query parameters were sent.', schema: invalidRequestErrorSchema },
  },
});

/**
 * The release APIs for scripts, CI and the GitHub Action, the Atom feed and the stable
 * "latest" download links. Registered before the site's catch-all.
 */
export const releaseRoutes = defineRoutes(
  [
    listReleasesRoute,
    getLatestReleaseRoute,
    getSuggestedDownloadRoute,
    downloadLatestArtifactRoute,
    getReleaseFeedRoute,
  ],
  (deps: LicensingPorts) => {
    const repository = createReleaseRepository(deps.database.db);
    const reading = releaseReadingFor(deps);
    const { PUBLIC_BASE_URL: publicBaseUrl } = deps.env;
    const routes = new Hono<AppEnv>();

    listReleasesRoute.handle(routes, async (c) => {
      const query = readQuery(c, z.object({}), []);
      if (!query.ok) return badRequest(c, query.message);
      const releases = await listReleases(repository, reading);
      c.header('Cache-Control', PUBLIC_CACHE);
      return c.json({ releases });
    });

    getLatestReleaseRoute.handle(routes, async (c) => {
      const query = readQuery(c, latestQuerySchema, latestQueryNames);
      if (!query.ok) return badRequest(c, query.message);
      const release = await findLatestRelease(repository, reading, query.value);
      c.header('Cache-Control', PUBLIC_CACHE);
      if (!release) {
        return c.json(
          {
            Error: 'ReleaseNotFound',
            message: `No published release matches (${describeQuery(query.value, c.req.query())}).`,
          },
          404,
        );
      }
      return c.json(release);
    });

    getSuggestedDownloadRoute.handle(routes, async (c) => {
      const query = readQuery(c, suggestedQuerySchema, ['os', 'arch']);
      if (!query.ok) return badRequest(c, query.message);
      const detected = platformFromRequest(c);
      const platform: DetectedPlatform = {
        os: query.value.os ?? detected.os,
        cpu: query.value.arch ?? detected.cpu,
      };
      c.header('Cache-Control', 'private, no-cache');
      c.header('Vary', ['User-Agent', ...CLIENT_HINT_HEADERS].join(', '));
      c.header('Accept-CH', REQUESTED_CLIENT_HINTS);
      const result = await suggestArtifact(repository, reading, platform);
      if (!result.ok) {
        const { operatingSystem, architecture, format } = result.selection;
        return result.code === 'NO_RELEASE'
          ? c.json({ Error: 'ReleaseNotFound', message: 'No release has been published yet.' }, 404)
          : c.json(
              {
                Error: 'ArtifactNotFound',
                message: `The latest release has no ${operatingSystem} ${architecture} .${format} build.`,
              },
              404,
            );
      }
      return c.json({ detected: platform, artifact: result.artifact });
    });

    downloadLatestArtifactRoute.handle(routes, async (c) => {
      const operatingSystem = parseOperatingSystem(c.req.param('os'));
      const architecture = artifactArchitectureSchema.safeParse(c.req.param('arch'));
      const format = artifactFormatSchema.safeParse(c.req.param('format'));
      if (!operatingSystem) {
        return badRequest(
          c,
          `Unknown operating system "${c.req.param('os')}". Use windows, macos or linux.`,
        );
      }
      if (!architecture.success) {
        return badRequest(
          c,
          `Unknown architecture "${c.req.param('arch')}". Use ${artifactArchitectures.join(', ')}.`,
        );
      }
      if (!format.success) {
        return badRequest(
          c,
          `Unknown format "${c.req.param('format')}". Use ${artifactFormats.join(', ')}.`,
        );
      }
      const query = readQuery(c, latestQuerySchema, latestQueryNames);
      if (!query.ok) return badRequest(c, query.message);
      const release = await findLatestRelease(repository, reading, query.value);
      if (!release) {
        return c.json(
          {
            Error: 'ReleaseNotFound',
            message: `No published release matches (${describeQuery(query.value, c.req.query())}).`,
          },
          404,
        );
      }
      const selection = { operatingSystem, architecture: architecture.data, format: format.data };
      const artifact = findArtifact(release, selection);
      if (!artifact) {
        return c.json(
          {
            Error: 'ArtifactNotFound',
            message: `Release ${release.version} has no ${operatingSystem} ${architecture.data} .${format.data} build.`,
          },
          404,
        );
      }
      c.header('Cache-Control', PUBLIC_CACHE);
      return c.redirect(artifact.downloadUri, 302);
    });

    getReleaseFeedRoute.handle(routes, async (c) => {
      const query = readQuery(c, z.object({}), []);
      if (!query.ok) return badRequest(c, query.message);
      const releases = await listReleases(repository, reading);
      c.header('Content-Type', 'application/atom+xml; charset=utf-8');
      c.header('Cache-Control', PUBLIC_CACHE);
      return c.body(renderReleaseFeed(releases, publicBaseUrl, deps.clock()));
    });

    // Read-only resources: other methods get a JSON 405 instead of falling through to the site.
    routes.on(
      ['POST', 'PUT', 'PATCH', 'DELETE'],
      [
        '/api/releases',
        '/api/releases/latest',
        '/api/downloads/suggested',
        '/download/latest/:os/:arch/:format',
        RELEASE_FEED_PATH,
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
