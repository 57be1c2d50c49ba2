import type { MiddlewareHandler } from 'hono';
import { proxyHeader } from './proxy-headers.ts';
import type { AppEnv } from './types.ts';

export interface SecurityHeaderOptions {
  /** Extra origins the browser may call (e.g. the account service on another host). */
  connectOrigins: string[];
  /** Google Analytics, when configured, needs its script and beacons allowed. */
  analytics: boolean;
  /** Vite's dev server injects inline scripts and a websocket: no CSP in development. */
  development: boolean;
}

/** The options the app's variables give (the CSP of every page and of the API reference). */
export function securityHeaderOptionsOf(env: {
  ACCOUNT_API_URL?: string | undefined;
  GA_MEASUREMENT_ID?: string | undefined;
  NODE_ENV: string;
}): SecurityHeaderOptions {
  const accountOrigin = env.ACCOUNT_API_URL ? new URL(env.ACCOUNT_API_URL).origin : undefined;
  return {
    connectOrigins: accountOrigin ? [accountOrigin] : [],
    analytics: Boolean(env.GA_MEASUREMENT_ID),
    development: env.NODE_ENV === 'development',
  };
}

const analyticsScript = ['https://www.googletagmanager.com'];
const analyticsConnect = [
  'https://*.google-analytics.com',
  'https://*.analytics.google.com',
  'https://www.googletagmanager.com',
];

/** The site's referrer policy; a route that hands out bearer links sets its own (decision 082). */
export const DEFAULT_REFERRER_POLICY = 'strict-origin-when-cross-origin';

/** Hashes (`'sha256-…'`) of a document's inline scripts and `<style>` elements. */
export interface InlineHashes {
  scripts: readonly string[];
  styles: readonly string[];
}

const noInlineCode: InlineHashes = { scripts: [], styles: [] };

/**
 * The CSP of a response. Inline code runs only when its hash is listed, so a page's policy is a
 * function of its HTML and both can be cached and shared (decision 100); no `'unsafe-inline'`.
 */
export function contentSecurityPolicy(
  options: SecurityHeaderOptions,
  inline: InlineHashes = noInlineCode,
): string {
  const script = ["'self'", ...inline.scripts];
  const style = ["'self'", ...inline.styles];
  const connect = ["'self'", ...options.connectOrigins];
  const img = ["'self'", 'data:'];
  if (options.analytics) {
    script.push(...analyticsScript);
    connect.push(...analyticsConnect);
    img.push('https://*.google-analytics.com', 'https://www.googletagmanager.com');
  }
  return [
    "default-src 'self'",
    `script-src ${script.join(' ')}`,
    `style-src ${style.join(' ')}`,
    `img-src ${img.join(' ')}`,
    "font-src 'self'",
    `connect-src ${connect.join(' ')}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self' https://checkout.stripe.com https://billing.stripe.com",
    "frame-ancestors 'none'",
  ].join('; ');
}

const fixedHeaders: ReadonlyArray<readonly [string, string]> = [
  ['X-Content-Type-Options', 'nosniff'],
  ['Referrer-Policy', DEFAULT_REFERRER_POLICY],
  [
    'Permissions-Policy',
    'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
  ],
  ['X-Frame-Options', 'DENY'],
  ['Cross-Origin-Opener-Policy', 'same-origin'],
];

export function isHttps(url: string, forwardedProto: string | undefined): boolean {
  return forwardedProto ? forwardedProto === 'https' : url.startsWith('https:');
}

export const HSTS_HEADER = [
  'Strict-Transport-Security',
  'max-age=63072000; includeSubDomains',
] as const;

/** Every security header of a response whose inline code has the given hashes, HSTS aside. */
export function securityHeaderList(
  options: SecurityHeaderOptions,
  inline: InlineHashes = noInlineCode,
): Array<readonly [string, string]> {
  const headers: Array<readonly [string, string]> = [...fixedHeaders];
  if (!options.development) {
    headers.push(['Content-Security-Policy', contentSecurityPolicy(options, inline)]);
  }
  return headers;
}

/**
 * Sets the security headers on every response. They are set before the route runs, so Hono builds
 * the response with them (no work on the finished response, decision 081) and a header the route
 * sets itself wins — documents set their own CSP with their inline hashes. A Response the route
 * constructs on its own gets the ones it lacks afterwards.
 */
export function securityHeaders(options: SecurityHeaderOptions): MiddlewareHandler<AppEnv> {
  const always = securityHeaderList(options);
  return async (c, next) => {
    const headers = isHttps(c.req.url, proxyHeader(c, 'x-forwarded-proto'))
      ? [...always, HSTS_HEADER]
      : always;
    for (const [name, value] of headers) c.header(name, value);
    await next();
    const sent = c.res.headers;
    for (const [name, value] of headers) if (!sent.has(name)) sent.set(name, value);
  };
}
