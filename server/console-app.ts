import type { MiddlewareHandler } from 'hono';
import { Hono } from 'hono';
import type { ServerBuild } from 'react-router';
import { consoleSession } from './features/console/console-session.ts';
import { sessionView } from './features/console/console-routes.ts';
import { consolePortsOf } from './features/console/console-ports.ts';
import { ownInlineCode } from './features/site/inline-hashes.ts';
import { createSiteRenderer } from './features/site/site-routes.ts';
import type { AppDeps } from './deps.ts';
import { domains } from './domains.ts';
import { actingAs } from './platform/audit/audit-context.ts';
import { isDatabaseUnavailable } from './platform/db/database-unavailable.ts';
import { bodyLimits, DEFAULT_BODY_LIMIT_BYTES } from './platform/http/body-limit.ts';
import { randomToken } from './platform/http/random-token.ts';
import { requestId } from './platform/http/request-id.ts';
import { requestLog } from './platform/http/request-log.ts';
import { HSTS_HEADER, isHttps, type InlineHashes } from './platform/http/security-headers.ts';
import { proxyHeader } from './platform/http/proxy-headers.ts';
import { staticAssets } from './platform/http/static-assets.ts';
import type { AppEnv } from './platform/http/types.ts';
import { CONSOLE_API, isConsolePath } from '#shared/contracts/console.ts';
import { errorCodes } from '#shared/contracts/error-codes.ts';

export interface ConsoleAppOptions {
  /** The React Router server build, or a loader of it (development reloads it per request). */
  serverBuild?: ServerBuild | (() => Promise<ServerBuild>);
  /** Directory of the client build to serve; omitted in development (Vite serves it). */
  clientDir?: string;
}

/** The console's policy: its own scripts and styles, its own origin, in no frame. */
export function consoleContentSecurityPolicy(inline: InlineHashes): string {
  return [
    "default-src 'self'",
    `script-src ${["'self'", ...inline.scripts].join(' ')}`,
    `style-src ${["'self'", ...inline.styles].join(' ')}`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const consoleHeaders: ReadonlyArray<readonly [string, string]> = [
  ['X-Content-Type-Options', 'nosniff'],
  ['Referrer-Policy', 'no-referrer'],
  ['X-Frame-Options', 'DENY'],
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['X-Robots-Tag', 'noindex, nofollow'],
  [
    'Permissions-Policy',
    'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
  ],
];

/** Unsafe methods only from the console's own pages: the browser's `Origin` must be the console's. */
function sameOriginWrites(consoleOrigin: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const method = c.req.method;
    if (method !== 'GET' && method !== 'HEAD' && c.req.header('origin') !== consoleOrigin) {
      c.header('Cache-Control', 'no-store');
      return c.json(
        {
          Error: errorCodes.csrfTokenInvalid,
          message: 'Console changes are accepted from the console’s own pages only.',
        },
        403,
      );
    }
    await next();
  };
}

/**
 * The operator console's own app (decision 226), served by its own listener (`CONSOLE_PORT`):
 * the console's pages and `/console/api/…`, nothing of the public site. Every answer carries
 * `X-Robots-Tag: noindex` and `frame-ancestors 'none'`; pages and API answers `no-store`.
 */
export function buildConsoleApp(deps: AppDeps, options: ConsoleAppOptions = {}): Hono<AppEnv> {
  const { env, logger } = deps;
  const app = new Hono<AppEnv>();
  const development = typeof options.serverBuild === 'function';
  app.use(async (c, next) => {
    c.set('trustedProxies', env.TRUST_PROXY);
    await next();
  });
  app.use(requestId());
  // The session middleware narrows the actor to `operator:<id>` (decision 224).
  app.use((c, next) => actingAs({ actor: 'system:web', requestId: c.get('requestId') }, next));
  app.use(requestLog(logger));
  app.use(bodyLimits({ limitFor: () => DEFAULT_BODY_LIMIT_BYTES }));
  app.use(async (c, next) => {
    const https = isHttps(c.req.url, proxyHeader(c, 'x-forwarded-proto'));
    const headers: Array<readonly [string, string]> = https
      ? [...consoleHeaders, HSTS_HEADER]
      : [...consoleHeaders];
    if (!development) {
      headers.push([
        'Content-Security-Policy',
        consoleContentSecurityPolicy({ scripts: [], styles: [] }),
      ]);
    }
    for (const [name, value] of headers) c.header(name, value);
    await next();
    // A Response the route made itself (a rendered page) gets the ones it lacks.
    const sent = c.res.headers;
    for (const [name, value] of headers) if (!sent.has(name)) sent.set(name, value);
    if (!c.req.path.startsWith('/assets/')) sent.set('Cache-Control', 'no-store');
  });
  app.use(sameOriginWrites(env.CONSOLE_ORIGIN));
  app.get('/', (c) => c.redirect('/console', 302));
  const session = consoleSession(consolePortsOf(deps));
  app.use('/console', session);
  app.use('/console/*', session);
  app.use('/console.data', session);
  for (const domain of domains) {
    for (const routes of domain.consoleRoutes ?? []) app.route('/', routes.app(deps));
  }
  if (options.clientDir) {
    app.use('/assets/*', staticAssets(options.clientDir));
    app.get('/favicon.svg', staticAssets(options.clientDir));
  }

  if (options.serverBuild) {
    const { render } = createSiteRenderer(deps, options.serverBuild);
    app.all('*', async (c, next) => {
      const path = c.req.path;
      // The console's pages and their data; `/__manifest` is React Router's route discovery.
      const page = isConsolePath(path) && !path.startsWith(CONSOLE_API);
      if (!page && path !== '/__manifest') return next();
      const operator = c.get('operator');
      const extra = { console: { session: operator ? sessionView(operator) : null } };
      if (development) return render(c.req.raw, undefined, extra);
      // Each page gets the CSP of its own inline scripts (decision 120).
      const mark = randomToken(16, 'base64url');
      const response = await render(c.req.raw, mark, extra);
      if (!(response.headers.get('content-type') ?? '').startsWith('text/html')) return response;
      const own = ownInlineCode(await response.text(), mark);
      const headers = new Headers(response.headers);
      headers.delete('content-length');
      headers.set('Content-Security-Policy', consoleContentSecurityPolicy(own.hashes));
      headers.set('Cache-Control', 'no-store');
      return new Response(c.req.method === 'HEAD' ? null : own.html, {
        status: response.status,
        headers,
      });
    });
  }

  app.onError((error, c) => {
    if (isDatabaseUnavailable(error)) {
      c.header('Retry-After', '5');
      return c.json(
        {
          Error: 'ServiceUnavailable',
          message: 'The service is briefly unavailable. Please try again in a few seconds.',
        },
        503,
      );
    }
    c.get('log').error({ err: error }, 'unhandled error');
    return c.json({ Error: 'InternalError', message: 'An unexpected error occurred.' }, 500);
  });
  // Nothing else lives here: not the site's pages, not the account service.
  app.notFound((c) =>
    c.req.path.startsWith(`${CONSOLE_API}/`)
      ? c.json({ Error: errorCodes.notFound, message: 'There is no endpoint at this path.' }, 404)
      : c.text('Not Found', 404),
  );
  return app;
}
