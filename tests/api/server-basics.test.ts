import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../support/databases.ts';
import { createTestApp, csrfHeaders, type TestApp } from '../support/test-app.ts';

describe.each(databaseTargets)('server basics on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
    t.app.post('/api/echo', (c) => c.json({ ok: true }));
  });
  afterAll(() => t.close());

  it('answers /healthz once the database is open', async () => {
    const res = await t.app.request('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', database: target.name });
  });

  it('sets the security headers, the same for every request (no nonce)', async () => {
    const first = await t.app.request('/healthz');
    const second = await t.app.request('/healthz');
    const csp = first.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/nonce|unsafe-inline/);
    expect(second.headers.get('content-security-policy')).toBe(csp);
    expect(first.headers.get('x-content-type-options')).toBe('nosniff');
    expect(first.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(first.headers.get('permissions-policy')).toContain('camera=()');
    expect(first.headers.get('strict-transport-security')).toBeNull();
  });

  it('answers /healthz uncompressed even to a client that accepts gzip: it is tiny', async () => {
    const res = await t.app.request('/healthz', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(await res.json()).toMatchObject({ status: 'ok' });
  });

  it('leaves the CLI’s licence validation to its own headers: no site middleware', async () => {
    const res = await t.app.request('/account/v1/licenses/validate', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Accept-Encoding': 'gzip' },
      body: '{}',
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.headers.get('content-security-policy')).toBeNull();
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(res.headers.get('content-encoding')).toBeNull();
  });

  it('answers unknown service paths with a JSON 404 and unknown assets in plain text', async () => {
    const unknown: Array<[string, string]> = [
      ['GET', '/api/no-such-endpoint'],
      ['GET', '/account/v1/no/such/endpoint'],
      // A known path with a method it does not take is no endpoint either.
      ['GET', '/account/v1/checkout'],
      ['POST', '/account/v1/webhooks/no-such-provider'],
    ];
    for (const [method, path] of unknown) {
      const res = await t.app.request(path, { method, headers: csrfHeaders() });
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toContain('application/json');
      expect(await res.json(), path).toEqual({
        Error: 'NotFound',
        message: 'There is no endpoint at this path.',
      });
    }
    const asset = await t.app.request('/assets/no-such-file.js');
    expect(asset.status).toBe(404);
    expect(asset.headers.get('content-type')).toContain('text/plain');
  });

  it('adds HSTS only when served over HTTPS', async () => {
    const res = await t.app.request('/healthz', { headers: { 'X-Forwarded-Proto': 'https' } });
    expect(res.headers.get('strict-transport-security')).toContain('max-age=');
  });

  it('issues an XSRF-TOKEN cookie readable by the page from the token endpoint only', async () => {
    expect((await t.app.request('/healthz')).headers.get('set-cookie')).toBeNull();
    const res = await t.app.request('/api/csrf-token');
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^XSRF-TOKEN=[\w-]{32}; Path=\/; SameSite=Strict$/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const { token } = z.object({ token: z.string() }).parse(await res.json());
    expect(cookie).toContain(`XSRF-TOKEN=${token};`);
    const posted = await t.app.request('/api/echo', {
      method: 'POST',
      headers: { Cookie: `XSRF-TOKEN=${token}`, 'X-XSRF-TOKEN': token },
    });
    expect(posted.status).toBe(200);
  });

  it('rejects unsafe requests without a matching CSRF token with 403 JSON', async () => {
    const missing = await t.app.request('/api/echo', { method: 'POST' });
    expect(missing.status).toBe(403);
    expect(await missing.json()).toMatchObject({ Error: 'CsrfTokenInvalid' });
    const wrong = await t.app.request('/api/echo', {
      method: 'POST',
      headers: { Cookie: 'XSRF-TOKEN=abc', 'X-XSRF-TOKEN': 'abd' },
    });
    expect(wrong.status).toBe(403);
    const ok = await t.app.request('/api/echo', { method: 'POST', headers: csrfHeaders() });
    expect(ok.status).toBe(200);
  });

  it('lets through without a CSRF token only what a route declaring another credential takes', async () => {
    const statusOf = async (path: string, method = 'POST') =>
      (
        await t.app.request(path, {
          method,
          headers: { 'Content-Type': 'application/json' },
          body: '{}',
        })
      ).status;
    // Declared `licenceKey`, `accessToken`, `stripeSignature`: their own checks answer.
    expect(await statusOf('/account/v1/access-tokens/list')).toBe(400);
    expect(await statusOf('/account/v1/licenses/validate')).toBe(400);
    // Stripe is not configured here: the webhook says so rather than asking for a CSRF token.
    expect(await statusOf('/account/v1/webhooks/stripe')).toBe(404);
    // Declared `csrf`, and paths or methods no route declares (decision 225).
    for (const [path, method] of [
      ['/account/v1/licenses/trial', 'POST'],
      ['/account/v1/webhooks/no-such-provider', 'POST'],
      ['/account/v1/access-tokens/no-such-action', 'POST'],
      ['/account/v1/access-tokens/list', 'PUT'],
    ] as const) {
      expect(await statusOf(path, method), `${method} ${path}`).toBe(403);
    }
  });
});
