import { actingAs } from './platform/audit/audit-context.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Hono } from 'hono';
import type { ServerBuild } from 'react-router';
import type { AppDeps } from './deps.ts';
import { compression } from './platform/http/compression.ts';
import { csrf } from './platform/csrf/csrf.ts';
import { csrfExemptionsOf } from './platform/csrf/csrf-exemptions.ts';
import { requestId } from './platform/http/request-id.ts';
import { requestLog } from './platform/http/request-log.ts';
import { isDatabaseUnavailable } from './platform/db/database-unavailable.ts';
import { CLIENT_CLOSED_REQUEST, isClientAbort } from './platform/http/client-abort.ts';
import { nodeIncoming } from './platform/http/node-bindings.ts';
import { answerNotFound, unknownServicePaths } from './platform/http/not-found.ts';
import { domains, routeDefinitions } from './domains.ts';
import {
  securityHeaderOptionsOf,
  securityHeaders,
  type SecurityHeaderOptions,
} from './platform/http/security-headers.ts';
import { staticAssets } from './platform/http/static-assets.ts';
import type { AppEnv } from './platform/http/types.ts';
import { MAX_WEBHOOK_BYTES, STRIPE_WEBHOOK_PATH } from './billing/payments/webhook-routes.ts';
import { bodyLimits, DEFAULT_BODY_LIMIT_BYTES } from './platform/http/body-limit.ts';
import { metricsEnabled, METRICS_PATH } from './metrics/metrics-access.ts';
import { metricsRoute } from './metrics/metrics-routes.ts';
import { requestMetrics } from './metrics/request-metrics.ts';
import { siteRoutes } from './features/site/site-routes.ts';
import { storedPageListener } from './features/site/stored-page-listener.ts';

export interface BuildAppOptions {
  /** The React Router server build, or a loader of it (dev mode reloads it per request). */
  serverBuild?: ServerBuild | (() => Promise<ServerBuild>);
  /** Directory of the client build to serve; omitted in dev (Vite serves it). */
  clientDir?: string;
}

/** The Hono app, and the Node-level fast path for stored pages when there is a page store. */
export interface BuiltService {
  app: Hono<AppEnv>;
  /**
   * Answers requests for stored pages before Hono sees them (decision 150); false for anything
   * else, which then goes to `app`. Undefined without a page store (development, tests without
   * a server build).
   */
  storedPages: ((incoming: IncomingMessage, outgoing: ServerResponse) => boolean) | undefined;
}

/** Assembles the whole product — site, account service, static files — into one Hono app. */
export function buildApp(deps: AppDeps, options: BuildAppOptions = {}): Hono<AppEnv> {
  return buildService(deps, options).app;
}

/** `buildApp`, with the stored-page fast path the production server puts in front of it. */
export function buildService(deps: AppDeps, options: BuildAppOptions = {}): BuiltService {
  const { env, logger } = deps;
  const app = new Hono<AppEnv>();
  const security: SecurityHeaderOptions = securityHeaderOptionsOf(env);
  const secureCookie = env.PUBLIC_BASE_URL.startsWith('https:');
  const site = options.serverBuild ? siteRoutes(deps, options.serverBuild, security) : undefined;
  const assets = options.clientDir ? staticAssets(options.clientDir) : undefined;

  const withMetrics = metricsEnabled(env);
  if (withMetrics) {
    // First, so refusals and stored pages are timed too (decision 131).
    const kinds = new Map<unknown, string>();
    if (site) {
      kinds.set(site.cachedPages, 'page').set(site.render, 'page');
      const { cache } = site;
      if (cache) deps.metrics.watchPageStore(() => cache.stats());
    }
    if (assets) kinds.set(assets, 'asset');
    app.use(requestMetrics(deps.metrics, kinds));
  }
  // Before the request id, which a trusted proxy may send (decision 160).
  app.use(async (c, next) => {
    c.set('trustedProxies', env.TRUST_PROXY);
    await next();
  });
  app.use(requestId());
  // Every change a request makes is audited with it (decision 224); handlers that know who acts
  // (a customer's link or key) name them with `attribute`.
  app.use((c, next) => actingAs({ actor: 'system:web', requestId: c.get('requestId') }, next));
  app.use(requestLog(logger));
  // Before anything reads a body (decision 127).
  app.use(
    bodyLimits({
      limitFor: (path) =>
        path === STRIPE_WEBHOOK_PATH ? MAX_WEBHOOK_BYTES : DEFAULT_BODY_LIMIT_BYTES,
    }),
  );
  // Before the page store, which may hold the 404 page under this path.
  if (env.METRICS_TOKEN) app.get(METRICS_PATH, metricsRoute(deps.metrics, env.METRICS_TOKEN));
  // Pages rendered once, served from memory with all their headers (decision 100).
  if (site) app.use(site.cachedPages);
  // The CLI's hot path: JSON for a machine, so no CSP, cookies or compression (decision 077).
  for (const domain of domains) {
    for (const routes of domain.hotPathRoutes ?? []) app.route('/', routes.app(deps));
  }
  app.use(securityHeaders(security));
  app.use(compression());
  // Checked unless the route the request goes to declares another credential (decision 225).
  app.use(csrf({ isExempt: csrfExemptionsOf(routeDefinitions()), secureCookie }));
  // Every domain's routes, in the order of the list (decision 169).
  for (const domain of domains) {
    for (const routes of domain.routes ?? []) app.route('/', routes.app(deps));
  }

  if (assets) app.use(assets);

  app.onError((error, c) => {
    if (isClientAbort(nodeIncoming(c))) {
      // The client hung up mid-body (its ECONNRESET): nobody to answer, nothing wrong here.
      c.get('log').info({ status: CLIENT_CLOSED_REQUEST }, 'client aborted');
      return new Response(null, { status: CLIENT_CLOSED_REQUEST });
    }
    if (isDatabaseUnavailable(error)) {
      // The database is restarting or unreachable: say so, and when to try again (decision 112).
      c.get('log').warn({ err: error }, 'database unavailable');
      c.header('Retry-After', '5');
      c.header('Cache-Control', 'no-store');
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
  // Unknown service paths answer as the service does, never with a rendered page (decision 120).
  app.notFound(answerNotFound);

  if (site) {
    // Documents, route data and route manifests are large and of unknown length: compressed even
    // as JSON (the app-wide instance leaves JSON of unknown length alone, decision 081). Stored
    // pages carry their own brotli and gzip bytes, which compression leaves alone.
    app.all('*', unknownServicePaths, compression({ unknownLength: 'all' }), site.render);
  }
  const cache = site?.cache;
  const storedPages = cache
    ? storedPageListener({
        cache,
        logger,
        metrics: withMetrics ? deps.metrics : undefined,
        trustedProxies: env.TRUST_PROXY,
      })
    : undefined;
  return { app, storedPages };
}
