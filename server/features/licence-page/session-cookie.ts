import type { Context } from 'hono';
import { generateCookie, getCookie } from 'hono/cookie';
import {
  LICENCE_SESSION_COOKIE,
  LICENCE_SESSION_HOST_COOKIE,
} from '#shared/contracts/licence-page.ts';
import type { AppEnv } from '#server/platform/http/types.ts';

/**
 * The licence page's session cookie (decision 229): `__Host-orgsmith-licences` on an HTTPS origin
 * (HttpOnly, Secure, SameSite=Lax, Path=/, no Domain), the unprefixed name on a plain-HTTP
 * development origin; only the name of the origin's scheme is read, so a cookie planted over
 * HTTP never counts on HTTPS.
 */
export function sessionCookieName(secure: boolean): string {
  return secure ? LICENCE_SESSION_HOST_COOKIE : LICENCE_SESSION_COOKIE;
}

/** The session id in a `Cookie` header (for the page's loader, which has no Hono context). */
export function sessionIdOfCookieHeader(
  cookieHeader: string | null,
  secure: boolean,
): string | undefined {
  const name = sessionCookieName(secure);
  for (const part of (cookieHeader ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=') || undefined;
  }
  return undefined;
}

export function readSessionCookie(c: Context<AppEnv>, secure: boolean): string | undefined {
  return getCookie(c, sessionCookieName(secure));
}

export function setSessionCookie(
  c: Context<AppEnv>,
  secure: boolean,
  sessionId: string,
  expiresAt: Date,
): void {
  c.header(
    'Set-Cookie',
    generateCookie(sessionCookieName(secure), sessionId, {
      path: '/',
      httpOnly: true,
      secure,
      sameSite: 'Lax',
      expires: expiresAt,
    }),
    { append: true },
  );
}

export function clearSessionCookie(c: Context<AppEnv>, secure: boolean): void {
  c.header(
    'Set-Cookie',
    generateCookie(sessionCookieName(secure), '', {
      path: '/',
      httpOnly: true,
      secure,
      sameSite: 'Lax',
      maxAge: 0,
    }),
    { append: true },
  );
}
