import { randomBytes } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
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

/** Sets a fresh CSP nonce on the context and the security headers on every response. */
export function securityHeaders(options: SecurityHeaderOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const nonce = randomBytes(16).toString('base64');
    c.set('nonce', nonce);
    await next();
    const headers = c.res.headers;
    if (!options.development) {
      headers.set('Content-Security-Policy', contentSecurityPolicy(nonce, options));
    }
    headers.set('X-Content-Type-Options', 'nosniff');
    headers.set('Referrer-Policy', 'strict-origin-when-cross-origin');
    headers.set(
      'Permissions-Policy',
      'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
    );
    headers.set('X-Frame-Options', 'DENY');
    headers.set('Cross-Origin-Opener-Policy', 'same-origin');
    const forwardedProto = c.req.header('x-forwarded-proto');
    const https = forwardedProto
      ? forwardedProto === 'https'
      : new URL(c.req.url).protocol === 'https:';
    if (https) headers.set('Strict-Transport-Security', 'max-age=63072000; includeSubDomains');
  };
}
