import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { generateCookie, getCookie } from 'hono/cookie';
import { constantTimeEqual } from '#server/platform/crypto/constant-time-equal.ts';
import {
  CSRF_COOKIE,
  CSRF_FORM_FIELD,
  CSRF_HEADER,
  CSRF_TOKEN_PATH,
  csrfCookieName,
} from '#shared/contracts/csrf.ts';
import { randomToken } from './random-token.ts';
import type { AppEnv } from './types.ts';

export { CSRF_COOKIE, CSRF_FORM_FIELD, CSRF_HEADER };

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface CsrfOptions {
  /** Paths called by machines, not browsers (webhooks, the CLI): they authenticate otherwise. */
  isExempt: (path: string) => boolean;
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
    if (safeMethods.has(c.req.method) || options.isExempt(c.req.path)) return next();
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

/** `GET /api/csrf-token`: the browser's token before its first unsafe request. */
export function csrfTokenRoutes(options: { secureCookie: boolean }): Hono<AppEnv> {
  return new Hono<AppEnv>().get(CSRF_TOKEN_PATH, (c) => {
    const token = issueCsrfToken(c, options.secureCookie);
    c.header('Cache-Control', 'no-store');
    return c.json({ token });
  });
}
