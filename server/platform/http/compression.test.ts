import { gunzipSync, inflateSync } from 'node:zlib';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { probeJson, ResponseProbe } from '#tests/support/response-probe.ts';
import { compression, negotiateEncoding, worthCompressing } from './compression.ts';
import type { AppEnv } from './types.ts';

const page = `<!doctype html><html><body>${'<p>Orgsmith moves metadata.</p>'.repeat(200)}</body></html>`;

function appWith(route: (app: Hono<AppEnv>) => void): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(compression());
  route(app);
  return app;
}

describe('negotiateEncoding', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['identity', undefined],
    ['br', undefined],
    ['gzip', 'gzip'],
    ['gzip, deflate, br, zstd', 'gzip'],
    ['deflate', 'deflate'],
    ['GZIP;q=0.5, deflate', 'deflate'],
    ['gzip;q=0, deflate;q=0.2', 'deflate'],
    ['gzip;q=0', undefined],
    ['*', 'gzip'],
    ['*;q=0.1, gzip;q=0', 'deflate'],
    ['gzip;level=1;q=0.8', 'gzip'],
  ])('%j → %s', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});

describe('worthCompressing', () => {
  const headers = (init: Record<string, string>) => new Headers(init);

  it('takes compressible types of unknown length: pages, stylesheets, feeds', () => {
    for (const type of [
      'text/html; charset=utf-8',
      'text/css',
      'application/atom+xml',
      'image/svg+xml',
    ]) {
      expect(worthCompressing(200, headers({ 'Content-Type': type }))).toBe(true);
    }
  });

  it('leaves JSON and plain text of unknown length alone: API answers are small', () => {
    expect(worthCompressing(200, headers({ 'Content-Type': 'application/json' }))).toBe(false);
    expect(worthCompressing(404, headers({ 'Content-Type': 'text/plain' }))).toBe(false);
  });

  it('takes JSON of unknown length too where the route produces large data', () => {
    const json = headers({ 'Content-Type': 'application/json' });
    expect(worthCompressing(200, json, { unknownLength: 'all' })).toBe(true);
    const image = headers({ 'Content-Type': 'image/png' });
    expect(worthCompressing(200, image, { unknownLength: 'all' })).toBe(false);
  });

  it('goes by Content-Length when the response states it', () => {
    const json = (length: string) =>
      headers({ 'Content-Type': 'application/json', 'Content-Length': length });
    expect(worthCompressing(200, json('1023'))).toBe(false);
    expect(worthCompressing(200, json('1024'))).toBe(true);
    expect(worthCompressing(200, json('100'), { threshold: 50 })).toBe(true);
    const html = headers({ 'Content-Type': 'text/html', 'Content-Length': '300' });
    expect(worthCompressing(200, html)).toBe(false);
  });

  it('never touches encoded, non-compressible, no-transform or bodiless responses', () => {
    const html = { 'Content-Type': 'text/html' };
    expect(worthCompressing(200, headers({ ...html, 'Content-Encoding': 'br' }))).toBe(false);
    expect(worthCompressing(200, headers({ 'Content-Type': 'image/png' }))).toBe(false);
    expect(worthCompressing(200, headers({}))).toBe(false);
    expect(
      worthCompressing(200, headers({ ...html, 'Cache-Control': 'public, no-transform' })),
    ).toBe(false);
    for (const status of [101, 204, 206, 304]) {
      expect(worthCompressing(status, headers(html))).toBe(false);
    }
  });
});

describe('compression middleware', () => {
  it('gzips a page for a client that accepts it, and says so', async () => {
    const app = appWith((a) => a.get('/', (c) => c.html(page)));
    const res = await app.request('/', { headers: { 'Accept-Encoding': 'gzip, deflate, br' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    expect(res.headers.get('content-length')).toBeNull();
    expect(gunzipSync(Buffer.from(await res.arrayBuffer())).toString()).toBe(page);
  });

  it('deflates when only deflate is accepted, and keeps an existing Vary', async () => {
    const app = appWith((a) =>
      a.get('/', (c) => {
        c.header('Vary', 'Cookie');
        c.header('ETag', '"v1"');
        return c.html(page);
      }),
    );
    const res = await app.request('/', { headers: { 'Accept-Encoding': 'deflate' } });
    expect(res.headers.get('content-encoding')).toBe('deflate');
    expect(res.headers.get('vary')).toBe('Cookie, Accept-Encoding');
    expect(res.headers.get('etag')).toBe('W/"v1"');
    expect(inflateSync(Buffer.from(await res.arrayBuffer())).toString()).toBe(page);
  });

  it('compresses a large JSON document that states its length', async () => {
    const document = JSON.stringify({ paths: Array.from({ length: 200 }, (_, i) => `/p/${i}`) });
    const app = appWith((a) =>
      a.get('/openapi.json', (c) =>
        c.body(document, 200, {
          'Content-Type': 'application/json',
          'Content-Length': String(Buffer.byteLength(document)),
        }),
      ),
    );
    const res = await app.request('/openapi.json', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(JSON.parse(gunzipSync(Buffer.from(await res.arrayBuffer())).toString())).toEqual(
      JSON.parse(document),
    );
  });

  it('hands a small JSON answer on as the route built it, body unread', async () => {
    const sent = probeJson({ status: 'ok' });
    const app = appWith((a) => a.get('/healthz', () => sent));
    const res = await app.request('/healthz', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(res).toBe(sent);
    expect(sent.bodyReads).toBe(0);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('vary')).toBeNull();
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('does nothing at all for a request without Accept-Encoding', async () => {
    const sent = new ResponseProbe(page, { headers: { 'Content-Type': 'text/html' } });
    const app = appWith((a) => a.get('/', () => sent));
    const res = await app.request('/');
    expect(res).toBe(sent);
    expect(sent.bodyReads).toBe(0);
    expect(res.headers.get('content-encoding')).toBeNull();
  });

  it('leaves HEAD requests, pre-compressed files and images alone', async () => {
    const app = appWith((a) => {
      a.on(['GET', 'HEAD'], '/page', (c) => c.html(page));
      a.get('/app.js', (c) =>
        c.body('compressed bytes', 200, {
          'Content-Type': 'text/javascript',
          'Content-Encoding': 'br',
        }),
      );
      a.get('/logo.png', (c) => c.body(new Uint8Array(4096), 200, { 'Content-Type': 'image/png' }));
    });
    const accept = { headers: { 'Accept-Encoding': 'gzip' } };
    const head = await app.request('/page', { ...accept, method: 'HEAD' });
    expect(head.headers.get('content-encoding')).toBeNull();
    const script = await app.request('/app.js', accept);
    expect(script.headers.get('content-encoding')).toBe('br');
    expect(await script.text()).toBe('compressed bytes');
    const image = await app.request('/logo.png', accept);
    expect(image.headers.get('content-encoding')).toBeNull();
    expect((await image.arrayBuffer()).byteLength).toBe(4096);
  });
});
