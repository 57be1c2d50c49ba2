import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { AppEnv } from '../platform/http/types.ts';
import type { ServiceMetrics } from './service-metrics.ts';

/** Methods with a label of their own; any other (PROPFIND, junk) counts as `OTHER`. */
const labelledMethods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Middleware (`app.use`) and the site's catch-all are registered on these paths. */
const isCatchAll = (path: string) => path === '*' || path === '/*';

/**
 * The route label of an answered request, never its path, so no URL can add a label value: the
 * route pattern that answered (`/download/latest/:os/:arch/:format`); `page` or `asset` when a
 * catch-all handler in `kinds` did; for a middleware's answer (413, 403) the pattern of the route
 * the request was for; `other` when there is none.
 */
export function routeLabel(c: Context, kinds: ReadonlyMap<unknown, string>): string {
  const routes = matchedRoutes(c);
  const index = c.req.routeIndex;
  const answered = routes[index];
  if (answered) {
    const kind = kinds.get(answered.handler);
    if (kind !== undefined) return kind;
    if (!isCatchAll(answered.path)) return answered.path;
  }
  for (let next = index + 1; next < routes.length; next++) {
    const route = routes[next];
    if (route && !isCatchAll(route.path)) return route.path;
  }
  return 'other';
}

/**
 * Times every request and counts it by method, route label and status (decision 131). First in
 * the chain, so refusals and stored pages count too; it reads only the status of the finished
 * response, never its body or headers (decision 081).
 */
export function requestMetrics(
  metrics: ServiceMetrics,
  /** Catch-all handlers and their labels: the page store and renderer `page`, static files `asset`. */
  kinds: ReadonlyMap<unknown, string>,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const method = labelledMethods.has(c.req.method) ? c.req.method : 'OTHER';
    const seconds = (performance.now() - started) / 1000;
    metrics.requestServed(method, routeLabel(c, kinds), c.res.status, seconds);
  };
}
