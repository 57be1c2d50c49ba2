import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { generateCookie, getCookie } from 'hono/cookie';
import { z } from 'zod';
import { defineRoute, defineRoutes } from '#server/platform/api-doc/define-route.ts';
import { constantTimeEqual } from '#server/platform/crypto/constant-time-equal.ts';
import {
  CSRF_COOKIE,
  CSRF_FORM_FIELD,
  CSRF_HEADER,
  CSRF_TOKEN_PATH,
  csrfCookieName,
} from '#shared/contracts/csrf.ts';
import { randomToken } from '../http/random-token.ts';
import type { AppEnv } from '../http/types.ts';

export { CSRF_COOKIE, CSRF_FORM_FIELD, CSRF_HEADER };

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface CsrfOptions {
  /**
   * Requests to routes that machines call with their own credential (webhooks, the CLI):
   * `csrfExemptionsOf` the route definitions (decision 225).
   */
  isExempt: (method: string, path: string) => boolean;
  secureCookie: boolean;
}

/** The visitor's CSRF cookie, under the name the origin's scheme gives it (decision 128). */
export function readCsrfCookie(c: Context<AppEnv>, secureCookie: boolean): string | undefined {
  return getCookie(c, csrfCookieName(secureCookie));
}

/**
 * The visitor's CSRF token: the cookie's when it has one, else a fresh one set as the cookie on
 * this response. Only responses that are never shared call it (the token endpoint, the local
 * payment pages), so page HTML stays cacheable (decision 101).
 */
export function issueCsrfToken(c: Context<AppEnv>, secureCookie: boolean): string {
  const existing = readCsrfCookie(c, secureCookie);
  if (existing) return existing;
  const token = randomToken(24, 'base64url');
  c.header(
    'Set-Cookie',
    generateCookie(csrfCookieName(secureCookie), token, {
      path: '/',
      sameSite: 'Strict',
      secure: secureCookie,
      httpOnly: false,
    }),
    { append: true },
  );
  return token;
}

function refused(c: Context<AppEnv>): Response {
  return c.json(
    {
      Error: 'CsrfTokenInvalid',
      message: `Missing or invalid ${CSRF_HEADER} header. Reload the page and try again.`,
    },
    403,
  );
}

/**
 * Double-submit check: unsafe requests must echo the `XSRF-TOKEN` cookie in `X-XSRF-TOKEN` (or
 * `_csrf` in a form); a missing or different token is refused with 403 JSON. Without the cookie,
 * or without the header on anything but a form, the body is never read (decision 127).
 */
export function csrf(options: CsrfOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (safeMethods.has(c.req.method) || options.isExempt(c.req.method, c.req.path)) return next();
    const cookieToken = readCsrfCookie(c, options.secureCookie);
    if (!cookieToken) return refused(c);
    let sent = c.req.header(CSRF_HEADER);
    const contentType = c.req.header('content-type') ?? '';
    if (!sent && contentType.startsWith('application/x-www-form-urlencoded')) {
      // The body has passed the body limit already, so this parse is bounded.
      const field = (await c.req.parseBody())[CSRF_FORM_FIELD];
      sent = typeof field === 'string' ? field : undefined;
    }
    if (!sent || !constantTimeEqual(cookieToken, sent)) return refused(c);
    return next();
  };
}

const getCsrfTokenRoute = defineRoute({
  method: 'get',
  path: CSRF_TOKEN_PATH,
  auth: 'public',
  operationId: 'getCsrfToken',
  tag: 'Site',
  origin: 'site',
  summary: 'The CSRF token for unsafe requests from the site',
  description:
    'Sets the `XSRF-TOKEN` cookie when the browser has none and answers its value; unsafe requests ' +
    'echo it in the `X-XSRF-TOKEN` header. Pages never set the cookie, so their HTML can be cached ' +
    'and shared; the site calls this before its first form submission.',
  responses: {
    200: {
      description: 'The token (also in the `XSRF-TOKEN` cookie); never cached.',
      schema: z.object({ token: z.string() }),
      headers: {
        'Set-Cookie': {
          description: '`XSRF-TOKEN=…; Path=/; SameSite=Strict` when the browser had none.',
          schema: z.string(),
        },
      },
    },
  },
});

/** `GET /api/csrf-token`: the browser's token before its first unsafe request. */
export const csrfTokenRoutes = defineRoutes(
  [getCsrfTokenRoute],
  (options: { secureCookie: boolean }) => {
    const app = new Hono<AppEnv>();
    getCsrfTokenRoute.handle(app, (c) => {
      const token = issueCsrfToken(c, options.secureCookie);
      c.header('Cache-Control', 'no-store');
      return c.json({ token });
    });
    return app;
  },
);
