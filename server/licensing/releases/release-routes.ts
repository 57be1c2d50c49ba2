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
import { RELEASE_FEED_PATH } from '#shared/downloads/paths.ts';
import { parseVersionFilter, type LatestReleaseQuery } from '#shared/downloads/versions.ts';
import type { AppDeps } from '#server/deps.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import { findLatestRelease } from './find-latest-release.ts';
import { listReleases } from './list-releases.ts';
import { releaseReadingFor } from './release-catalog.ts';
import { renderReleaseFeed } from './release-feed.ts';
import { createReleaseRepository } from './release-repository.ts';
import { suggestArtifact } from './suggest-artifact.ts';

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

/**
 * The release APIs for scripts, CI and the GitHub Action, the Atom feed and the stable
 * "latest" download links. Registered before the site's catch-all.
 */
export function releaseRoutes(deps: AppDeps): Hono<AppEnv> {
  const repository = createReleaseRepository(deps.database.db);
  const reading = releaseReadingFor(deps);
  const { PUBLIC_BASE_URL: publicBaseUrl } = deps.env;
  const routes = new Hono<AppEnv>();

  routes.get('/api/releases', async (c) => {
    const query = readQuery(c, z.object({}), []);
    if (!query.ok) return badRequest(c, query.message);
    const releases = await listReleases(repository, reading);
    c.header('Cache-Control', PUBLIC_CACHE);
    return c.json({ releases });
  });

  routes.get('/api/releases/latest', async (c) => {
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

  routes.get('/api/downloads/suggested', async (c) => {
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

  routes.get('/download/latest/:os/:arch/:format', async (c) => {
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

  routes.get(RELEASE_FEED_PATH, async (c) => {
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
}
