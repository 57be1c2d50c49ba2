import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { attribute } from '#server/platform/audit/audit-context.ts';
import { recordAuditEvent } from '#server/platform/audit/audit-log-repository.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import { CONSOLE_SESSION_COOKIE } from '#shared/contracts/console.ts';
import type { ConsolePorts } from './console-ports.ts';
import { operatorActor, readSession } from './operator-sessions.ts';

/** A session cookie's token: 32 random bytes, base64url. Anything else is no session. */
const SESSION_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The console listener's session middleware (decision 226): the cookie's live session puts its
 * operator on the context (`c.get('operator')`) and names them the actor of everything the
 * request changes (`operator:<id>`, decision 224); the guards of `{ permission }` routes then
 * decide. A refused permission is written as an `authz.denied` audit event.
 */
export function consoleSession(ports: ConsolePorts): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = getCookie(c, CONSOLE_SESSION_COOKIE);
    const operator =
      token && SESSION_TOKEN.test(token) ? await readSession(ports, token) : undefined;
    if (operator) {
      c.set('operator', operator);
      attribute({ actor: operatorActor(operator.id) });
    }
    c.set('consoleRequest', {
      now: ports.clock(),
      recordDenial: async (permission) => {
        await recordAuditEvent(ports.db, {
          action: 'authz.denied',
          targetType: 'permission',
          targetId: permission,
          subjectEmail: operator?.email ?? null,
          after: { method: c.req.method, path: c.req.path, role: operator?.role ?? null },
        });
      },
    });
    await next();
  };
}
