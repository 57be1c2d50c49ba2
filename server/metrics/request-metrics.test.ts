import { Hono, type MiddlewareHandler } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../platform/http/types.ts';
import { requestMetrics } from './request-metrics.ts';
import { metricsOff, type ServiceMetrics } from './service-metrics.ts';

/** An app shaped like ours: middleware, API routes, static files, then the site's catch-all. */
function appRecordingLabels() {
  const served: string[] = [];
  const metrics: ServiceMetrics = {
    ...metricsOff,
    requestServed: (method, route, status) => served.push(`${method} ${route} ${status}`),
  };
  const stored: MiddlewareHandler<AppEnv> = async (c, next) =>
    c.req.path === '/stored' ? c.text('stored page') : next();
  const assets: MiddlewareHandler<AppEnv> = async (c, next) =>
    c.req.path.startsWith('/assets/app.') ? c.text('asset') : next();
  const render: MiddlewareHandler<AppEnv> = async (c) => c.html('<h1>page</h1>', 404);
  const app = new Hono<AppEnv>();
  app.use(
    requestMetrics(
      metrics,
      new Map<unknown, string>([
        [stored, 'page'],
        [render, 'page'],
        [assets, 'asset'],
      ]),
    ),
  );
  // A refusal before any route, like the body limit or the CSRF check.
  app.use(async (c, next) => (c.req.header('x-refuse') ? c.text('refused', 403) : next()));
  app.use(stored);
  app.get('/items/:id', (c) => c.json({ id: c.req.param('id') }));
  app.post('/items', () => {
    throw new Error('broken');
  });
  app.onError((_error, c) => c.text('error', 500));
  app.use(assets);
  app.all('*', render);
  return { app, served };
}

describe('requestMetrics', () => {
  it('labels a request by the pattern or kind of handler that answered it', async () => {
    const { app, served } = appRecordingLabels();
    await app.request('/items/42');
    await app.request('/items/43', { method: 'HEAD' });
    await app.request('/items', { method: 'POST' });
    await app.request('/items', { method: 'POST', headers: { 'x-refuse': '1' } });
    await app.request('/stored');
    await app.request('/assets/app.js');
    await app.request('/nothing/here');
    await app.request('/nothing', { method: 'POST', headers: { 'x-refuse': '1' } });
    expect(served).toEqual([
      'GET /items/:id 200',
      'HEAD /items/:id 200',
      'POST /items 500',
      'POST /items 403',
      'GET page 200',
      'GET asset 200',
      'GET page 404',
      'POST other 403',
    ]);
  });

  it('never takes a label from the URL or an unusual method', async () => {
    const { app, served } = appRecordingLabels();
    for (const path of ['/items/a/b', '/%69tems/1', '/assets/zzz.js', '/items/1?x=/etc', '//x']) {
      for (const method of ['GET', 'PROPFIND', 'BREW']) await app.request(path, { method });
    }
    const labels = new Set(served.map((line) => line.split(' ').slice(0, 2).join(' ')));
    expect([...labels].sort()).toEqual(['GET /items/:id', 'GET page', 'OTHER page']);
  });
});
