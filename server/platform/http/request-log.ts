import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../logger.ts';
import type { AppEnv } from './types.ts';

/** Paths whose request lines go at debug level: static assets and health checks. */
function isQuiet(path: string): boolean {
  return path.startsWith('/assets/') || path === '/healthz' || path === '/readyz';
}

/**
 * A path segment that is a bearer id: a short prefix, `_`, then at least 32 URL-safe characters
 * (24 random bytes or more, e.g. the local provider's `lcs_`, `lps_` and `lin_` ids).
 */
const BEARER_SEGMENT = /(^|\/)([A-Za-z]{1,16}_)[A-Za-z0-9_-]{32,}/g;

/**
 * The path as logs may keep it (decision 206): bearer segments masked (`lps_***`) and no query
 * string, where e-mailed links carry their `?token=`.
 */
export function loggablePath(path: string): string {
  const queryStart = path.indexOf('?');
  const bare = queryStart === -1 ? path : path.slice(0, queryStart);
  return bare.replace(BEARER_SEGMENT, '$1$2***');
}

/** The one request line, written by the middleware and by the stored-page fast path alike. */
export function logRequest(
  log: Logger,
  method: string,
  path: string,
  status: number,
  startedMs: number,
): void {
  const entry = {
    method,
    path: loggablePath(path),
    status,
    ms: Math.round((performance.now() - startedMs) * 10) / 10,
  };
  if (isQuiet(path)) log.debug(entry, 'request');
  else log.info(entry, 'request');
}

/** One structured log line per request (after `requestId`); assets and health checks at debug level. */
export function requestLog(logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const log = logger.child({ requestId: c.get('requestId') });
    c.set('log', log);
    await next();
    logRequest(log, c.req.method, c.req.path, c.res.status, started);
  };
}
