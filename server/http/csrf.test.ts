import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { csrf, csrfTokenRoutes, issueCsrfToken } from './csrf.ts';
import type { AppEnv } from './types.ts';

const cookiePattern = /^XSRF-TOKEN=([\w-]{32}); Path=\/; SameSite=Strict$/;

function appWith(route: (app: Hono<AppEnv>) => void, secureCookie = false): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(csrf({ isExempt: (path) => path.startsWith('/hooks/'), secureCookie }));
  app.route('/', csrfTokenRoutes({ secureCookie }));
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

  it('marks the cookie Secure behind HTTPS', async () => {
    const app = appWith(() => undefined, true);
    expect((await app.request('/api/csrf-token')).headers.get('set-cookie')).toMatch(
      /^XSRF-TOKEN=[\w-]{32}; Path=\/; Secure; SameSite=Strict$/,
    );
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
