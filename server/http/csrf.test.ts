import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { probeJson } from '../../tests/helpers/response-probe.ts';
import { csrf } from './csrf.ts';
import type { AppEnv } from './types.ts';

const cookiePattern = /^XSRF-TOKEN=[\w-]{32}; Path=\/; SameSite=Strict$/;

function appWith(route: (app: Hono<AppEnv>) => void, secureCookie = false): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(csrf({ isExempt: (path) => path.startsWith('/hooks/'), secureCookie }));
  route(app);
  return app;
}

describe('csrf', () => {
  it('issues the token cookie once, with the response the route builds', async () => {
    const app = appWith((a) =>
      a.get('/', (c) => {
        c.header('Set-Cookie', 'theme=dark; Path=/', { append: true });
        return c.json({ ok: true });
      }),
    );
    const first = await app.request('/');
    const cookies = first.headers.getSetCookie();
    expect(cookies).toHaveLength(2);
    expect(cookies).toContain('theme=dark; Path=/');
    expect(cookies.find((cookie) => cookie.startsWith('XSRF-TOKEN='))).toMatch(cookiePattern);
    const returning = await app.request('/', { headers: { Cookie: 'XSRF-TOKEN=abc' } });
    expect(returning.headers.getSetCookie()).toEqual(['theme=dark; Path=/']);
  });

  it('adds it to a Response the route built itself, without reading its body', async () => {
    const sent = probeJson({ ok: true });
    const app = appWith((a) => a.get('/document', () => sent));
    const res = await app.request('/document');
    expect(res.headers.getSetCookie()).toHaveLength(1);
    expect(res.headers.get('set-cookie')).toMatch(cookiePattern);
    expect(sent.bodyReads).toBe(0);
  });

  it('marks the cookie Secure behind HTTPS and skips hashed assets', async () => {
    const app = appWith((a) => {
      a.get('/', (c) => c.text('ok'));
      a.get('/assets/app.js', (c) => c.text('js'));
    }, true);
    expect((await app.request('/')).headers.get('set-cookie')).toMatch(
      /^XSRF-TOKEN=[\w-]{32}; Path=\/; Secure; SameSite=Strict$/,
    );
    expect((await app.request('/assets/app.js')).headers.get('set-cookie')).toBeNull();
  });

  it('refuses an unsafe request without the matching token, and exempt paths pass', async () => {
    const app = appWith((a) => {
      a.post('/api/echo', (c) => c.json({ ok: true }));
      a.post('/hooks/stripe', (c) => c.json({ ok: true }));
    });
    const refused = await app.request('/api/echo', { method: 'POST' });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ Error: 'CsrfTokenInvalid' });
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
