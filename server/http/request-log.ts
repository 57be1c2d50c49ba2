import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../logger.ts';
import type { AppEnv } from './types.ts';

/** One structured log line per request (after `requestId`); assets and health checks at debug level. */
export function requestLog(logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const log = logger.child({ requestId: c.get('requestId') });
    c.set('log', log);
    await next();
    const path = c.req.path;
    const quiet = path.startsWith('/assets/') || path === '/healthz' || path === '/readyz';
    const entry = {
      method: c.req.method,
      path,
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
    };
    if (quiet) log.debug(entry, 'request');
    else log.info(entry, 'request');
  };
}
