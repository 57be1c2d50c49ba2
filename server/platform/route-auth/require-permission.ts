import type { MiddlewareHandler } from 'hono';
import { errorCodes } from '#shared/contracts/error-codes.ts';
import type { AppEnv } from '../http/types.ts';

/** The answer to a console endpoint called without a console session. */
export const consoleSessionRequiredMessage = 'Sign in to the operator console first.';

/**
 * In front of an endpoint declared `{ permission }`: only an operator whose role grants the
 * permission may go on. No console session exists yet (issue 40), so every request is answered
 * 401, before its body is read.
 */
export function requirePermission(permission: string): MiddlewareHandler<AppEnv> {
  if (!permission) throw new Error('A console endpoint names the permission it needs');
  return async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(
      { Error: errorCodes.consoleSessionRequired, message: consoleSessionRequiredMessage },
      401,
    );
  };
}
