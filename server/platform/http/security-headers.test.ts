import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { probeJson } from '#tests/support/response-probe.ts';
import {
  contentSecurityPolicy,
  securityHeaders,
  type SecurityHeaderOptions,
} from './security-headers.ts';
import type { AppEnv } from './types.ts';

const production: SecurityHeaderOptions = {
  connectOrigins: [],
  analytics: false,
  development: false,
};

function appWith(
  route: (app: Hono<AppEnv>) => void,
  options: SecurityHeaderOptions = production,
): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(securityHeaders(options));
  route(app);
  return app;
}

function expectSecurityHeaders(headers: Headers): void {
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('permissions-policy')).toContain('camera=()');
  expect(headers.get('x-frame-options')).toBe('DENY');
  expect(headers.get('cross-origin-opener-policy')).toBe('same-origin');
  expect(headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
}

describe('securityHeaders', () => {
  it('builds responses with the headers and a strict CSP without a nonce', async () => {
    const app = appWith((a) => a.get('/', (c) => c.json({ ok: true })));
    const res = await app.request('/');
    expectSecurityHeaders(res.headers);
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("style-src 'self';");
    expect(csp).not.toContain('nonce');
    expect(csp).not.toContain('unsafe-inline');
    const again = await app.request('/');
    expect(again.headers.get('content-security-policy')).toBe(csp);
  });

  it('lists the hashes of a document’s inline code in its CSP', () => {
    const csp = contentSecurityPolicy(production, {
      scripts: ["'sha256-abc='"],
      styles: ["'sha256-def='"],
    });
    expect(csp).toContain("script-src 'self' 'sha256-abc='");
    expect(csp).toContain("style-src 'self' 'sha256-def='");
  });

  it('keeps the Referrer-Policy a route sets itself', async () => {
    const app = appWith((a) => {
      a.get('/bearer', (c) => {
        c.header('Referrer-Policy', 'no-referrer');
        return c.html('<p>secret link</p>');
      });
      a.get('/redirect', (c) => {
        c.header('Referrer-Policy', 'no-referrer');
        return c.redirect('/elsewhere', 303);
      });
      a.get('/own', () => probeJson({}, { 'Referrer-Policy': 'same-origin' }));
    });
    for (const [path, policy] of [
      ['/bearer', 'no-referrer'],
      ['/redirect', 'no-referrer'],
      ['/own', 'same-origin'],
    ] as const) {
      const res = await app.request(path);
      expect(res.headers.get('referrer-policy'), path).toBe(policy);
      expectSecurityHeaders(res.headers);
    }
  });

  it('adds what a Response the route built itself lacks, without reading its body', async () => {
    const sent = probeJson({ ok: true });
    const app = appWith((a) => a.get('/document', () => sent));
    const res = await app.request('/document');
    expectSecurityHeaders(res.headers);
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(sent.bodyReads).toBe(0);
  });

  it('covers not-found and error answers too', async () => {
    const app = appWith((a) =>
      a.get('/boom', () => {
        throw new Error('boom');
      }),
    );
    app.onError((_error, c) => c.json({ Error: 'InternalError' }, 500));
    expectSecurityHeaders((await app.request('/missing')).headers);
    expectSecurityHeaders((await app.request('/boom')).headers);
  });

  it('adds HSTS only for HTTPS, as the request or the proxy in front says', async () => {
    const app = appWith((a) => a.get('/', (c) => c.text('ok')));
    const hsts = async (url: string, headers: Record<string, string> = {}) =>
      (await app.request(url, { headers })).headers.get('strict-transport-security');
    expect(await hsts('http://localhost/')).toBeNull();
    expect(await hsts('https://orgsmith.test/')).toContain('max-age=63072000');
    expect(await hsts('http://localhost/', { 'X-Forwarded-Proto': 'https' })).toContain('max-age');
    expect(await hsts('https://orgsmith.test/', { 'X-Forwarded-Proto': 'http' })).toBeNull();
  });

  it('sends no CSP in development, where Vite injects its own scripts', async () => {
    const app = appWith((a) => a.get('/', (c) => c.text('ok')), {
      ...production,
      development: true,
    });
    const res = await app.request('/');
    expect(res.headers.get('content-security-policy')).toBeNull();
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
