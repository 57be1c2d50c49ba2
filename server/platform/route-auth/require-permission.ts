import type { Context, MiddlewareHandler } from 'hono';
import { errorCodes } from '#shared/contracts/error-codes.ts';
import {
  roleGrants,
  STEP_UP_MAX_AGE_MS,
  stepUpPermissions,
  type Permission,
} from '#shared/console/permissions.ts';
import type { AppEnv } from '../http/types.ts';

/** The answer to a console endpoint called without a console session. */
export const consoleSessionRequiredMessage = 'Sign in to the operator console first.';

/** The 403 of an operator whose role lacks `permission`: it names both. */
export function permissionDeniedMessage(role: string, permission: Permission): string {
  return `Your role (${role}) does not allow ${permission}.`;
}

export const recentVerificationMessage =
  'Confirm it is you with your passkey again: this action needs a check from the last 5 minutes.';

function sessionRequired(c: Context<AppEnv>): Response {
  c.header('Cache-Control', 'no-store');
  return c.json(
    { Error: errorCodes.consoleSessionRequired, message: consoleSessionRequiredMessage },
    401,
  );
}

/**
 * In front of an endpoint declared `consoleSession`: any signed-in operator goes on; without a
 * live console session the answer is 401, before the body is read (decision 226).
 */
export const requireConsoleSession: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.get('operator')) return sessionRequired(c);
  await next();
};

/**
 * Whether the operator's last passkey check is recent enough for an action that moves money or
 * ends a licence (`STEP_UP_MAX_AGE_MS`): undefined if so, else the 403 answer
 * `RecentVerificationRequired` (the page then asks for the passkey, `POST
 * /console/api/session/verify`, and sends the action again). Without a session, the 401.
 */
export function requireRecentVerification(c: Context<AppEnv>): Response | undefined {
  const operator = c.get('operator');
  const request = c.get('consoleRequest');
  if (!operator || !request) return sessionRequired(c);
  if (request.now.getTime() - operator.verifiedAt.getTime() <= STEP_UP_MAX_AGE_MS) {
    return undefined;
  }
  c.header('Cache-Control', 'no-store');
  return c.json(
    { Error: errorCodes.recentVerificationRequired, message: recentVerificationMessage },
    403,
  );
}

/**
 * In front of an endpoint declared `{ permission }`: only an operator whose role grants the
 * permission goes on (decision 226). No session: 401. A role without it: 403 naming the
 * permission, and an `authz.denied` audit event. A permission of `stepUpPermissions` also needs
 * a passkey check from the last 5 minutes (`requireRecentVerification`). All before the body is
 * read.
 */
export function requirePermission(permission: Permission): MiddlewareHandler<AppEnv> {
  if (!permission) throw new Error('A console endpoint names the permission it needs');
  const stepUp = stepUpPermissions.includes(permission);
  return async (c, next) => {
    const operator = c.get('operator');
    const request = c.get('consoleRequest');
    if (!operator || !request) return sessionRequired(c);
    if (!roleGrants(operator.role, permission)) {
      await request.recordDenial(permission);
      c.header('Cache-Control', 'no-store');
      return c.json(
        {
          Error: errorCodes.permissionDenied,
          message: permissionDeniedMessage(operator.role, permission),
          permission,
        },
        403,
      );
    }
    if (stepUp) {
      const refused = requireRecentVerification(c);
      if (refused) return refused;
    }
    await next();
  };
}
