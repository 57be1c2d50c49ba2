import { timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { generateCookie, getCookie } from 'hono/cookie';
import { randomToken } from './random-token.ts';
import type { AppEnv } from './types.ts';

export const CSRF_COOKIE = 'XSRF-TOKEN';
export const CSRF_HEADER = 'X-XSRF-TOKEN';
/** Hidden field name for the server-rendered HTML forms of the local payment pages. */
export const CSRF_FORM_FIELD = '_csrf';

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface CsrfOptions {
  /** Paths called by machines, not browsers (webhooks, the CLI): they authenticate otherwise. */
  isExempt: (path: string) => boolean;
  secureCookie: boolean;
}

function tokensMatch(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Double-submit cookie: the server issues a random `XSRF-TOKEN` cookie (readable by the page's
 * script, SameSite=Strict); unsafe requests must echo it in `X-XSRF-TOKEN` (or `_csrf` in a form).
 */
export function csrf(options: CsrfOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const path = c.req.path;
    const cookieToken = getCookie(c, CSRF_COOKIE);
    if (!safeMethods.has(c.req.method) && !options.isExempt(path)) {
      let sent = c.req.header(CSRF_HEADER);
      const contentType = c.req.header('content-type') ?? '';
      if (!sent && contentType.startsWith('application/x-www-form-urlencoded')) {
        const field = (await c.req.parseBody())[CSRF_FORM_FIELD];
        sent = typeof field === 'string' ? field : undefined;
      }
      if (!cookieToken || !sent || !tokensMatch(cookieToken, sent)) {
        return c.json(
          {
            Error: 'CsrfTokenInvalid',
            message: `Missing or invalid ${CSRF_HEADER} header. Reload the page and try again.`,
          },
          403,
        );
      }
    }
    // A first visit gets its token. Set before the route runs, so Hono builds the response with
    // it (no work on the finished response, decision 081); a Response the route constructs on its
    // own (React Router's documents) gets it afterwards.
    const issued =
      !cookieToken && !path.startsWith('/assets/')
        ? generateCookie(CSRF_COOKIE, randomToken(24, 'base64url'), {
            path: '/',
            sameSite: 'Strict',
            secure: options.secureCookie,
            httpOnly: false,
          })
        : undefined;
    if (issued) c.header('Set-Cookie', issued, { append: true });
    await next();
    if (issued && !c.res.headers.getSetCookie().includes(issued)) {
      c.res.headers.append('Set-Cookie', issued);
    }
  };
}
