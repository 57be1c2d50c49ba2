import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalPageState } from '#app/ssr/canonical-page-state.ts';
import { securityHeaderList } from '#server/platform/http/security-headers.ts';
import { metricsOff, type ServiceMetrics } from '#server/metrics/service-metrics.ts';
import { parseTrustProxy } from '#server/platform/http/trusted-proxies.ts';
import { createPageResolver, type ManifestRoute } from './page-address.ts';
import { createPageCache, type PageRequest } from './page-cache.ts';
import { storedPageListener } from './stored-page-listener.ts';

const routes = [
  { id: 'root', path: '' },
  { id: 'routes/home', parentId: 'root', index: true },
  { id: 'routes/pricing', parentId: 'root', path: 'pricing' },
  { id: 'routes/blog-post', parentId: 'root', path: 'blog/:slug' },
  { id: 'routes/not-found', parentId: 'root', path: '*' },
] satisfies ManifestRoute[];
const resolve = createPageResolver(
  Object.fromEntries(routes.map((route) => [route.id, route])),
  canonicalPageState,
);

const cache = createPageCache({
  origin: 'https://orgsmith.test',
  resolve,
  securityHeaders: (inline) =>
    securityHeaderList({ connectOrigins: [], analytics: false, development: false }, inline),
  async render(request) {
    const url = new URL(request.url);
    return new Response(`<h1>${url.pathname}${url.search}</h1>${'<p>text</p>'.repeat(100)}`, {
      headers: { 'Content-Type': 'text/html; charset=utf-8' },
    });
  },
});

const logLines: Array<Record<string, unknown>> = [];
const logger = pino(
  { level: 'info' },
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  }),
);
const served: string[] = [];
const metrics: ServiceMetrics = {
  ...metricsOff,
  requestServed: (method, route, status) => served.push(`${method} ${route} ${status}`),
};
const listener = storedPageListener({
  cache,
  logger,
  metrics,
  trustedProxies: parseTrustProxy('loopback'),
});

/** A server like production's: the fast path first, a marked stand-in for Hono behind it. */
const server = createServer((incoming, outgoing) => {
  if (listener(incoming, outgoing)) return;
  incoming.resume();
  outgoing.writeHead(299, { 'x-fallback': 'yes' }).end();
});
let port = 0;

beforeAll(async () => {
  await cache.warm(['/', '/pricing', '/pricing?size=10']);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A raw HTTP/1.1 request: the target exactly as written, no headers of the client's own. */
function send(
  target: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolveAnswer, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: target,
        headers: options.headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolveAnswer({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

function pageRequest(path: string, extra: Partial<PageRequest> = {}): PageRequest {
  const [pathname = path, query = ''] = path.split('?');
  const base = { acceptEncoding: undefined, ifNoneMatch: undefined, https: false };
  return { method: 'GET', path: pathname, query, ...base, ...extra };
}

/** What the Hono middleware would answer from the same store. */
async function throughMiddleware(path: string, extra: Partial<PageRequest> = {}) {
  const response = cache.lookup(pageRequest(path, extra));
  if (!response) throw new Error(`${path} is not stored`);
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: Buffer.from(await response.arrayBuffer()),
  };
}

/** The response headers a server sets itself, whichever path answered. */
function ownHeaders(headers: IncomingHttpHeaders) {
  const serverSet = new Set(['date', 'connection', 'keep-alive']);
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !serverSet.has(name)));
}

describe('storedPageListener', () => {
  it('answers a stored page with the very status, headers and bytes of the middleware', async () => {
    for (const [target, acceptEncoding] of [
      ['/', undefined],
      ['/pricing', 'gzip, deflate, br'],
      ['/pricing', 'gzip'],
      ['/pricing?size=10', 'br'],
    ] as const) {
      const answer = await send(target, {
        headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
      });
      const expected = await throughMiddleware(target, { acceptEncoding });
      expect(answer.status, target).toBe(expected.status);
      expect(ownHeaders(answer.headers), target).toEqual(expected.headers);
      expect(answer.body.equals(expected.body), target).toBe(true);
    }
  });

  it('answers HEAD without a body, a known ETag with 304, and a proxied HTTPS visit with HSTS', async () => {
    const head = await send('/pricing', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(
      (await throughMiddleware('/pricing')).headers['content-length'],
    );

    const etag = head.headers.etag ?? '';
    const notModified = await send('/pricing', { headers: { 'if-none-match': `W/${etag}` } });
    expect(notModified.status).toBe(304);
    expect(notModified.body.length).toBe(0);

    const https = await send('/pricing', { headers: { 'x-forwarded-proto': 'https' } });
    expect(https.headers['strict-transport-security']).toContain('max-age=');
    expect((await send('/pricing')).headers['strict-transport-security']).toBeUndefined();
  });

  it('leaves everything else to Hono, having written nothing', async () => {
    const fallbacks: Array<[string, Parameters<typeof send>[1]]> = [
      ['/pricing', { method: 'POST', body: 'x=1' }],
      ['/pricing', { method: 'OPTIONS' }],
      ['/pricing', { headers: { 'content-length': '3' }, body: 'x=1' }],
      ['/pricing', { headers: { 'transfer-encoding': 'chunked' }, body: 'x=1' }],
      ['/%70ricing', {}],
      ['/blog/../pricing', {}],
      ['/./pricing', {}],
      ['//pricing', {}],
      ['/pricing?size=%31', {}],
      ['http://orgsmith.test/pricing', {}],
      ['/pricing?size=11', {}],
      ['/blog/not-rendered-yet', {}],
      ['/no-such-page', {}],
      ['/account/v1/csrf-token', {}],
    ];
    for (const [target, options] of fallbacks) {
      const answer = await send(target, options);
      expect(answer.status, target).toBe(299);
      expect(answer.headers['x-fallback'], target).toBe('yes');
    }
  });

  it('writes the request line and counts the request as the middleware chain does', async () => {
    logLines.length = 0;
    served.length = 0;
    await send('/pricing', { headers: { 'x-request-id': 'proxy-id.1' } });
    await send('/pricing', { method: 'HEAD', headers: { 'x-request-id': 'bad id <script>' } });
    await send('/no-such-page');

    expect(logLines).toHaveLength(2);
    expect(logLines[0]).toMatchObject({
      level: 30,
      msg: 'request',
      requestId: 'proxy-id.1',
      method: 'GET',
      path: '/pricing',
      status: 200,
    });
    expect(logLines[0]?.ms).toEqual(expect.any(Number));
    expect(logLines[1]?.requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
    expect(served).toEqual(['GET page 200', 'HEAD page 200']);
  });
});
