import type { Context, MiddlewareHandler } from 'hono';
import { Hono } from 'hono';
import { carriesMetricsToken, METRICS_PATH } from './metrics-access.ts';
import type { ServiceMetrics } from './service-metrics.ts';

/** The exposition as Prometheus reads it; never cached, never sniffed as something else. */
async function exposition(c: Context, metrics: ServiceMetrics): Promise<Response> {
  const { contentType, body } = await metrics.expose();
  return c.body(body, 200, {
    'Content-Type': contentType,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
}

/**
 * `GET /metrics` on the public port (decision 131): with the bearer token, the exposition;
 * without it the request goes on as if the route did not exist, so it gets the very 404 every
 * unknown path gets and nobody can tell that metrics are on.
 */
export function metricsRoute(metrics: ServiceMetrics, token: string): MiddlewareHandler {
  return async (c, next) => {
    if (!carriesMetricsToken(c.req.header('authorization'), token)) return next();
    return exposition(c, metrics);
  };
}

/** The metrics listener's whole app: `GET /metrics` (with the token when one is set), else 404. */
export function metricsListenerApp(metrics: ServiceMetrics, token: string | undefined): Hono {
  const app = new Hono();
  app.get(METRICS_PATH, (c) =>
    token === undefined || carriesMetricsToken(c.req.header('authorization'), token)
      ? exposition(c, metrics)
      : c.text('Not Found', 404),
  );
  app.notFound((c) => c.text('Not Found', 404));
  return app;
}
