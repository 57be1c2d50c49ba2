import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { csrf, csrfTokenRoutes, issueCsrfToken } from './csrf.ts';
import type { AppEnv } from '../http/types.ts';

const cookiePattern = /^XSRF-TOKEN=([\w-]{32}); Path=\/; SameSite=Strict$/;

function appWith(route: (app: Hono<AppEnv>) => void, secureCookie = false): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(
    csrf({
      isExempt: (method, path) => method === 'POST' && path === '/hooks/stripe',
      secureCookie,
    }),
  );
  app.route('/', csrfTokenRoutes.app({ secureCookie }));
  route(app);
  return app;
}

describe('csrf', () => {
  it('sets no cookie on ordinary responses, so pages stay the same for every visitor', async () => {
    const app = appWith((a) => a.get('/', (c) => c.html('<p>page</p>')));
    const res = await app.request('/');
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it('issues the token from the token endpoint, uncached, and keeps an existing one', async () => {
    const app = appWith(() => undefined);
    const first = await app.request('/api/csrf-token');
    expect(first.headers.get('cache-control')).toBe('no-store');
    const cookie = first.headers.get('set-cookie') ?? '';
    const match = cookiePattern.exec(cookie);
    expect(match).not.toBeNull();
    expect(await first.json()).toEqual({ token: match?.[1] });

    const returning = await app.request('/api/csrf-token', {
      headers: { Cookie: 'XSRF-TOKEN=kept-token' },
    });
    expect(returning.headers.get('set-cookie')).toBeNull();
    expect(await returning.json()).toEqual({ token: 'kept-token' });
  });

  it('over HTTPS names the cookie __Host-XSRF-TOKEN, Secure, and believes only that one', async () => {
    const app = appWith((a) => a.post('/api/echo', (c) => c.json({ ok: true })), true);
    const issued = (await app.request('/api/csrf-token')).headers.get('set-cookie');
    expect(issued).toMatch(/^__Host-XSRF-TOKEN=[\w-]{32}; Path=\/; Secure; SameSite=Strict$/);
    // A sibling subdomain can plant `XSRF-TOKEN` for our host, never `__Host-XSRF-TOKEN`.
    const planted = await app.request('/api/echo', {
      method: 'POST',
      headers: { Cookie: 'XSRF-TOKEN=planted', 'X-XSRF-TOKEN': 'planted' },
    });
    expect(planted.status).toBe(403);
    const own = await app.request('/api/echo', {
      method: 'POST',
      headers: { Cookie: '__Host-XSRF-TOKEN=own', 'X-XSRF-TOKEN': 'own' },
    });
    expect(own.status).toBe(200);
  });

  it('refuses without the cookie before reading the body', async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new TextEncoder().encode('_csrf=x&'.repeat(1024)));
        if (pulled > 1000) controller.close();
      },
    });
    const app = appWith((a) => a.post('/api/echo', (c) => c.json({ ok: true })));
    // Streaming bodies need `duplex`, which the DOM typings of RequestInit do not list yet.
    const init = {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body,
      duplex: 'half',
    };
    const res = await app.request('/api/echo', init);
    expect(res.status).toBe(403);
    // A ReadableStream pulls ahead once to fill its queue; nothing beyond that was read.
    expect(pulled).toBeLessThanOrEqual(1);
  });

  it('lets a server-rendered form page issue the token it embeds', async () => {
    const app = appWith((a) => a.get('/form', (c) => c.text(issueCsrfToken(c, false))));
    const res = await app.request('/form');
    const match = cookiePattern.exec(res.headers.get('set-cookie') ?? '');
    expect(await res.text()).toBe(match?.[1]);
  });

  it('refuses an unsafe request without the matching token, and exempt paths pass', async () => {
    const app = appWith((a) => {
      a.post('/api/echo', (c) => c.json({ ok: true }));
      a.post('/hooks/stripe', (c) => c.json({ ok: true }));
    });
    const refused = await app.request('/api/echo', { method: 'POST' });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ Error: 'CsrfTokenInvalid' });
    const mismatched = await app.request('/api/echo', {
      method: 'POST',
      headers: { Cookie: 'XSRF-TOKEN=token-1', 'X-XSRF-TOKEN': 'token-2' },
    });
    expect(mismatched.status).toBe(403);
    const header = await app.request('/api/echo', {
      method: 'POST',
      headers: { Cookie: 'XSRF-TOKEN=token-1', 'X-XSRF-TOKEN': 'token-1' },
    });
    expect(header.status).toBe(200);
    const form = await app.request('/api/echo', {
      method: 'POST',
      headers: {
        Cookie: 'XSRF-TOKEN=token-1',
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: '_csrf=token-1',
    });
    expect(form.status).toBe(200);
    expect((await app.request('/hooks/stripe', { method: 'POST' })).status).toBe(200);
  });
});
