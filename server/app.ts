import { Hono } from 'hono';
import { createRequestHandler, RouterContextProvider, type ServerBuild } from 'react-router';
import type { SiteRequestContext, SiteServices } from '../app/context.ts';
import { billingPortalRoutes } from './billing-portal/billing-portal-routes.ts';
import { checkoutRoutes } from './checkout/checkout-routes.ts';
import { readCheckoutStatus } from './checkout/read-checkout-status.ts';
import { contactRoutes } from './contact/contact-routes.ts';
import type { AppDeps } from './deps.ts';
import { compression } from './http/compression.ts';
import { csrf } from './http/csrf.ts';
import { accessTokenRoutes } from './access-tokens/access-token-routes.ts';
import { licenceCertificateRoutes } from './licence-certificates/routes.ts';
import { licenceRecoveryRoutes } from './licence-recovery/licence-recovery-routes.ts';
import { licenceValidationRoutes } from './licence-validation/validation-routes.ts';
import { openApiRoutes } from './openapi/routes.ts';
import { requestLog } from './http/request-log.ts';
import { securityHeaders } from './http/security-headers.ts';
import { staticAssets } from './http/static-assets.ts';
import type { AppEnv } from './http/types.ts';
import { releaseCatalogReaderFor } from './releases/release-catalog.ts';
import { releaseRoutes } from './releases/release-routes.ts';
import { localPaymentRoutes } from './payments/local/local-routes.ts';
import { syncDepsOf } from './payments/sync-subscription.ts';
import { paymentWebhookRoutes } from './payments/webhook-routes.ts';
import { siteContextOf } from './site/site-context.ts';
import { trialRoutes } from './trials/trial-routes.ts';

export interface BuildAppOptions {
  /** The React Router server build, or a loader of it (dev mode reloads it per request). */
  serverBuild?: ServerBuild | (() => Promise<ServerBuild>);
  /** Directory of the client build to serve; omitted in dev (Vite serves it). */
  clientDir?: string;
}

/** Paths that machines call with their own authentication, so no CSRF token applies. */
function isCsrfExempt(path: string): boolean {
  return (
    path.startsWith('/account/v1/webhooks/') ||
    path === '/account/v1/licenses/validate' ||
    // Authenticated by the licence key or token in the body (decision 074).
    path === '/account/v1/access-tokens' ||
    path.startsWith('/account/v1/access-tokens/')
  );
}

/** Assembles the whole product — site, account service, static files — into one Hono app. */
export function buildApp(deps: AppDeps, options: BuildAppOptions = {}): Hono<AppEnv> {
  const { env, logger } = deps;
  const app = new Hono<AppEnv>();
  const accountOrigin = env.ACCOUNT_API_URL ? new URL(env.ACCOUNT_API_URL).origin : undefined;

  app.use(requestLog(logger));
  // The CLI's hot path: JSON for a machine, so no CSP, cookies or compression (decision 077).
  app.route('/', licenceValidationRoutes(deps));
  app.use(
    securityHeaders({
      connectOrigins: accountOrigin ? [accountOrigin] : [],
      analytics: Boolean(env.GA_MEASUREMENT_ID),
      development: env.NODE_ENV === 'development',
    }),
  );
  app.use(compression());
  app.use(csrf({ isExempt: isCsrfExempt, secureCookie: env.PUBLIC_BASE_URL.startsWith('https:') }));

  app.get('/healthz', (c) => c.json({ status: 'ok', database: deps.database.kind }));
  app.route('/', contactRoutes(deps));
  app.route('/', trialRoutes(deps));
  app.route('/', billingPortalRoutes(deps));
  app.route('/', releaseRoutes(deps));
  app.route('/', checkoutRoutes(deps));
  app.route('/', paymentWebhookRoutes(deps));
  app.route('/', localPaymentRoutes(deps));
  app.route('/', licenceCertificateRoutes(deps));
  app.route('/', accessTokenRoutes(deps));
  app.route('/', licenceRecoveryRoutes(deps));
  app.route('/', openApiRoutes(deps, { isCsrfExempt }));

  if (options.clientDir) app.use(staticAssets(options.clientDir));

  app.onError((error, c) => {
    c.get('log').error({ err: error }, 'unhandled error');
    return c.json({ Error: 'InternalError', message: 'An unexpected error occurred.' }, 500);
  });

  const serverBuild = options.serverBuild;
  if (serverBuild) {
    const handleDocument = createRequestHandler(serverBuild, env.NODE_ENV);
    const services: SiteServices = {
      releases: releaseCatalogReaderFor(deps),
      checkout: { readStatus: (sessionId) => readCheckoutStatus(syncDepsOf(deps), sessionId) },
    };
    // Documents, route data and route manifests are large and of unknown length: compressed even
    // as JSON (the app-wide instance leaves JSON of unknown length alone, decision 081).
    app.all('*', compression({ unknownLength: 'all' }), async (c) => {
      const build = typeof serverBuild === 'function' ? await serverBuild() : serverBuild;
      const site: SiteRequestContext = {
        nonce: c.get('nonce'),
        publicBaseUrl: env.PUBLIC_BASE_URL,
        accountApiUrl: env.ACCOUNT_API_URL ?? '',
        gaMeasurementId: env.GA_MEASUREMENT_ID,
        now: deps.clock(),
        services,
      };
      const context = new RouterContextProvider();
      context.set(siteContextOf(build), site);
      return handleDocument(c.req.raw, context);
    });
  }
  return app;
}
