import type { Context, MiddlewareHandler } from 'hono';
import { errorCodes } from '#shared/contracts/error-codes.ts';
import type { AppEnv } from './types.ts';

const isServicePath = (path: string) => path.startsWith('/api/') || path.startsWith('/account/v1/');
const isAssetPath = (path: string) => path.startsWith('/assets/');

/**
 * A path no route took. Under the account service and the site's API a JSON error like every
 * other answer there; elsewhere (unknown /assets/ files) a few plain bytes (decision 120).
 */
export function answerNotFound(c: Context<AppEnv>): Response {
  if (!isServicePath(c.req.path)) return c.text('Not Found', 404);
  c.header('Cache-Control', 'no-store');
  return c.json({ Error: errorCodes.notFound, message: 'There is no endpoint at this path.' }, 404);
}

/** In front of the site's renderer: unknown service and asset paths never become a page. */
export const unknownServicePaths: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (isServicePath(c.req.path) || isAssetPath(c.req.path)) return answerNotFound(c);
  await next();
};
