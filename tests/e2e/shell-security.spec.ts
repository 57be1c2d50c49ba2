import { createHash } from 'node:crypto';
import { expect, test } from './support/test.ts';
import { waitForHydration } from './support/shell.ts';

test('a POST from the page without the CSRF header is refused with 403 JSON', async ({ page }) => {
  await page.goto('/');
  await waitForHydration(page);
  const result = await page.evaluate(async () => {
    const response = await fetch('/api/submitContactForm', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Ada', emailAddress: 'ada@example.com', message: 'Hi' }),
    });
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      body: await response.json(),
    };
  });
  expect(result.status).toBe(403);
  expect(result.type).toContain('application/json');
  expect(result.body).toMatchObject({ Error: 'CsrfTokenInvalid' });
});

test('a wrong token is refused; the cookie token in the header passes the check', async ({
  page,
  context,
}) => {
  const landing = await page.goto('/');
  await waitForHydration(page);
  // Pages set no cookie (their HTML is shared); the site asks for the token before a POST.
  expect(await landing?.headerValue('set-cookie')).toBeNull();
  expect(await context.cookies()).toEqual([]);
  await page.evaluate(() => fetch('/api/csrf-token'));
  const token = (await context.cookies()).find((cookie) => cookie.name === 'XSRF-TOKEN');
  expect(token).toBeDefined();
  expect(token?.sameSite).toBe('Strict');
  expect(token?.path).toBe('/');
  expect(token?.httpOnly).toBe(false);

  const post = (header: string | null) =>
    page.evaluate(async (value) => {
      const fromCookie = document.cookie
        .split('; ')
        .find((part) => part.startsWith('XSRF-TOKEN='))
        ?.slice('XSRF-TOKEN='.length);
      const headers: Record<string, string> = { 'Content-Type': 'application/json' };
      const sent = value === null ? fromCookie : value;
      if (sent) headers['X-XSRF-TOKEN'] = decodeURIComponent(sent);
      const response = await fetch('/api/submitContactForm', {
        method: 'POST',
        headers,
        body: '{}',
      });
      const text = await response.text();
      return { status: response.status, text };
    }, header);

  const wrong = await post('not-the-token');
  expect(wrong.status).toBe(403);
  expect(wrong.text).toContain('CsrfTokenInvalid');

  // What the site's apiFetch sends: the cookie's value in X-XSRF-TOKEN.
  const right = await post(null);
  expect(right.status).not.toBe(403);
  expect(right.text).not.toContain('CsrfTokenInvalid');
});

test('documents carry the security headers and a CSP that lists their inline scripts', async ({
  request,
}) => {
  const first = await request.get('/');
  const second = await request.get('/');
  const headers = first.headers();
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(headers['permissions-policy']).toContain('camera=()');
  const csp = headers['content-security-policy'] ?? '';
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toMatch(/nonce|unsafe-inline|strict-dynamic/);
  // The same page, the same policy: it can be cached with the page (decision 100).
  expect(second.headers()['content-security-policy']).toBe(csp);
  const html = await first.text();
  // Every inline script the browser runs is allowed by its hash; JSON-LD data blocks are not run.
  const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(
    ([, attributes = '']) => !attributes.includes('src=') && !attributes.includes('ld+json'),
  );
  expect(inline.length).toBeGreaterThan(0);
  for (const [, , body = ''] of inline) {
    const hash = createHash('sha256').update(body).digest('base64');
    expect(csp).toContain(`'sha256-${hash}'`);
  }
});

test('documents and the route manifest travel compressed; the tiny health check does not', async ({
  page,
  request,
}) => {
  const manifest = page.waitForResponse((response) => response.url().includes('/__manifest'));
  const landing = await page.goto('/');
  // Stored pages are kept in brotli, which Chromium prefers.
  expect(landing?.headers()['content-encoding']).toBe('br');
  // JSON of unknown length from the site handler (decision 081).
  expect((await manifest).headers()['content-encoding']).toBe('gzip');
  const health = await request.get('/healthz', { headers: { 'Accept-Encoding': 'gzip' } });
  expect(health.headers()['content-encoding']).toBeUndefined();
  expect(await health.json()).toMatchObject({ status: 'ok' });
});
