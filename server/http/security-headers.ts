import type { MiddlewareHandler } from 'hono';
import { randomToken } from './random-token.ts';
import type { AppEnv } from './types.ts';

export interface SecurityHeaderOptions {
  /** Extra origins the browser may call (e.g. the account service on another host). */
  connectOrigins: string[];
  /** Google Analytics, when configured, needs its script and beacons allowed. */
  analytics: boolean;
  /** Vite's dev server injects inline scripts and a websocket: no CSP in development. */
  development: boolean;
}

const analyticsScript = ['https://www.googletagmanager.com'];
const analyticsConnect = [
  'https://*.google-analytics.com',
  'https://*.analytics.google.com',
  'https://www.googletagmanager.com',
];

/** The site's referrer policy; a route that hands out bearer links sets its own (decision 082). */
export const DEFAULT_REFERRER_POLICY = 'strict-origin-when-cross-origin';

export function contentSecurityPolicy(nonce: string, options: SecurityHeaderOptions): string {
  const script = ["'self'", `'nonce-${nonce}'`, "'strict-dynamic'"];
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
    "style-src 'self' 'unsafe-inline'",
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

function isHttps(url: string, forwardedProto: string | undefined): boolean {
  return forwardedProto ? forwardedProto === 'https' : url.startsWith('https:');
}

/**
 * Sets a fresh CSP nonce on the context and the security headers on every response. They are set
 * before the route runs, so Hono builds the response with them (no work on the finished response,
 * decision 081) and a header the route sets itself wins. A Response the route constructs on its
 * own (React Router's documents) gets the ones it lacks afterwards.
 */
export function securityHeaders(options: SecurityHeaderOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const nonce = randomToken(16, 'base64');
    c.set('nonce', nonce);
    const headers: Array<readonly [string, string]> = [...fixedHeaders];
    if (!options.development) {
      headers.push(['Content-Security-Policy', contentSecurityPolicy(nonce, options)]);
    }
    if (isHttps(c.req.url, c.req.header('x-forwarded-proto'))) {
      headers.push(['Strict-Transport-Security', 'max-age=63072000; includeSubDomains']);
    }
    for (const [name, value] of headers) c.header(name, value);
    await next();
    const sent = c.res.headers;
    for (const [name, value] of headers) if (!sent.has(name)) sent.set(name, value);
  };
}
