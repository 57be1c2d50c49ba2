import type { MiddlewareHandler } from 'hono';
import { createRequestHandler, RouterContextProvider, type ServerBuild } from 'react-router';
import type { SiteRequestContext, SiteServices } from '#app/context.ts';
import {
  readPortalLink,
  readPortalLinkDepsOf,
} from '#server/billing/billing-portal/read-portal-link.ts';
import { readInvoiceOrderLink } from '#server/billing/invoices/read-invoice-order-link.ts';
import { checkoutStatusReaderOf } from '#server/billing/checkout/read-checkout-status.ts';
import { quoteDepsOf } from '#server/billing/quotes/create-quote.ts';
import { readQuoteSummary } from '#server/billing/quotes/read-quote.ts';
import { readKeepTrialLink } from '#server/billing/subscriptions/keep-trial-key.ts';
import { invoiceCurrencies } from '#server/billing/bank-accounts.ts';
import { syncDepsOf } from '#server/billing/subscriptions/sync-subscription.ts';
import type { FeaturePorts } from '#server/features/feature-ports.ts';
import {
  isHttps,
  securityHeaderList,
  type SecurityHeaderOptions,
} from '#server/platform/http/security-headers.ts';
import { proxyHeader } from '#server/platform/http/proxy-headers.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import { rateLimitClient } from '#server/platform/rate-limit/client-ip.ts';
import { describeReleaseSigningKey } from '#server/licensing/releases/release-signing-key.ts';
import { releaseCatalogReaderFor } from '#server/licensing/releases/release-catalog.ts';
import { RELEASE_CATALOG_CHANNEL } from '#server/licensing/releases/release-repository.ts';
import { readLicencePageOf } from '../licence-page/read-licence-page.ts';
import { answerNotFound } from '#server/platform/http/not-found.ts';
import { isConsolePath } from '#shared/contracts/console.ts';
import { createPageResolver } from './page-address.ts';
import { createPageCache, type PageCache, type PageRequest } from './page-cache.ts';
import { canonicalPageStateOf, siteContextOf } from './site-context.ts';

export interface SiteRoutes {
  /** Serves stored pages before any other middleware runs (the fast path); else passes on. */
  cachedPages: MiddlewareHandler<AppEnv>;
  /** Renders every request no other route took: pages, route data, route manifests. */
  render: MiddlewareHandler<AppEnv>;
  /** The page store (production builds only; development renders every request). */
  cache: PageCache | undefined;
}

/** The paths of a sitemap's `<loc>` entries on our own origin. */
export function pathsInSitemap(xml: string, origin: string): string[] {
  const base = new URL(origin);
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].flatMap(([, loc = '']) => {
    const url = new URL(loc.trim(), base);
    return url.origin === base.origin ? [url.pathname] : [];
  });
}

function pageRequestOf(c: Parameters<MiddlewareHandler<AppEnv>>[0]): PageRequest {
  const url = c.req.url;
  const queryStart = url.indexOf('?');
  return {
    method: c.req.method,
    path: c.req.path,
    query: queryStart === -1 ? '' : url.slice(queryStart + 1),
    acceptEncoding: c.req.header('accept-encoding'),
    ifNoneMatch: c.req.header('if-none-match'),
    https: isHttps(url, proxyHeader(c, 'x-forwarded-proto')),
  };
}

/** Renders one request of the app: `scriptMark` goes on every inline script the render writes. */
export type SiteRender = (
  request: Request,
  scriptMark?: string,
  extra?: Pick<SiteRequestContext, 'console'>,
) => Promise<Response>;

/**
 * React Router's render of the app with the site's request context (its services read the
 * database): the site's pages, and on its own listener the operator console's (decision 226).
 */
export function createSiteRenderer(
  deps: FeaturePorts,
  serverBuild: ServerBuild | (() => Promise<ServerBuild>),
): { render: SiteRender; clients: WeakMap<Request, string> } {
  const { env } = deps;
  const handleDocument = createRequestHandler(serverBuild, env.NODE_ENV);
  const releases = releaseCatalogReaderFor(deps);
  const checkoutStatus = checkoutStatusReaderOf(deps);
  const portalLinkDeps = readPortalLinkDepsOf(deps);
  const quoteDeps = quoteDepsOf(deps);
  const syncDeps = syncDepsOf(deps);
  const readLicencePage = readLicencePageOf(deps);
  // The client of each visitor's request, for services that count per client; renders of a
  // page's key alone (shared pages, warming) have none.
  const clients = new WeakMap<Request, string>();
  const servicesFor = (client: string | undefined): SiteServices => ({
    releases,
    releaseSigningKeys: {
      describe: (keyId) =>
        describeReleaseSigningKey(deps.database.db, deps.releaseSigningKey, keyId),
    },
    checkout: {
      readStatus: (sessionId) => checkoutStatus.read(sessionId, client ?? 'server'),
    },
    billingPortal: { readLink: (token) => readPortalLink(portalLinkDeps, token) },
    invoiceOrders: { readLink: (token) => readInvoiceOrderLink(portalLinkDeps, token) },
    keepTrialKey: { readLink: (token) => readKeepTrialLink(syncDeps, token) },
    quotes: { readSummary: (token) => readQuoteSummary(quoteDeps, token) },
    licencePage: { read: readLicencePage },
  });

  const render: SiteRender = async (request, scriptMark, extra) => {
    const build = typeof serverBuild === 'function' ? await serverBuild() : serverBuild;
    const site: SiteRequestContext = {
      publicBaseUrl: env.PUBLIC_BASE_URL,
      accountApiUrl: env.ACCOUNT_API_URL ?? '',
      gaMeasurementId: env.GA_MEASUREMENT_ID,
      testPayments: env.payments.testModeNotice,
      invoiceCurrencies: invoiceCurrencies(env.bankAccounts),
      now: deps.clock(),
      services: servicesFor(clients.get(request)),
      scriptMark,
      logger: deps.logger,
      ...extra,
    };
    const context = new RouterContextProvider();
    context.set(siteContextOf(build), site);
    return handleDocument(request, context);
  };
  return { render, clients };
}

/**
 * The website: React Router renders the pages, and in production each shareable page is rendered
 * once and served from memory (decision 100). Publishing a release clears the store on every
 * instance (`NOTIFY release_catalog`), so /download and the home page's structured data change at
 * once. The operator console's pages are not the site's: 404 here (decision 226).
 */
export function siteRoutes(
  deps: FeaturePorts,
  serverBuild: ServerBuild | (() => Promise<ServerBuild>),
  security: SecurityHeaderOptions,
): SiteRoutes {
  const { env } = deps;
  const { render, clients } = createSiteRenderer(deps, serverBuild);

  // Development reloads the build per request: nothing to keep.
  const cache =
    typeof serverBuild === 'function'
      ? undefined
      : createPageCache({
          render,
          resolve: createPageResolver(serverBuild.routes, canonicalPageStateOf(serverBuild)),
          origin: env.PUBLIC_BASE_URL,
          securityHeaders: (inline) => securityHeaderList(security, inline),
          onStore: (page) => deps.logger.debug(page, 'page stored'),
        });

  if (cache) {
    // Every page the sitemap lists is rendered before its first visitor asks for it.
    setTimeout(() => {
      void render(new Request(new URL('/sitemap.xml', env.PUBLIC_BASE_URL)))
        .then((sitemap) => sitemap.text())
        .then((xml) => cache.warm(pathsInSitemap(xml, env.PUBLIC_BASE_URL)))
        .catch((error: unknown) => deps.logger.warn({ err: error }, 'warming the pages failed'));
    }, 0).unref();
    deps.database
      .listen(RELEASE_CATALOG_CHANNEL, () => cache.clear())
      .catch((error: unknown) =>
        deps.logger.error({ err: error }, 'cannot listen for release catalog changes'),
      );
  }

  return {
    cache,
    cachedPages: async (c, next) => {
      const hit = cache?.lookup(pageRequestOf(c));
      if (hit) return hit;
      await next();
    },
    render: async (c) => {
      // The console has a listener of its own (decision 226).
      if (isConsolePath(c.req.path)) return answerNotFound(c);
      clients.set(c.req.raw, rateLimitClient(c));
      // Development has no CSP (Vite injects its own scripts), so nothing to hash either.
      return cache ? cache.respond(pageRequestOf(c), c.req.raw) : render(c.req.raw);
    },
  };
}
