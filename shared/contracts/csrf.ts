/**
 * The double-submit CSRF scheme both sides follow: the server sets a random `XSRF-TOKEN` cookie
 * (readable by the page's script, SameSite=Strict); every unsafe request to our own origin echoes
 * it in `X-XSRF-TOKEN` (or `_csrf` in a server-rendered form). Pages never set the cookie, so their
 * HTML stays the same for every visitor: the browser asks `CSRF_TOKEN_PATH` for one before its
 * first unsafe request (decision 101).
 */
export const CSRF_COOKIE = 'XSRF-TOKEN';
/**
 * The same cookie on an https origin: the `__Host-` prefix makes the browser refuse it unless it
 * is Secure, for `/` and set by this very host, so a sibling subdomain cannot plant a token
 * (decision 128).
 */
export const CSRF_HOST_COOKIE = `__Host-${CSRF_COOKIE}`;

/** The cookie's name on an origin: prefixed over https. */
export function csrfCookieName(secure: boolean): string {
  return secure ? CSRF_HOST_COOKIE : CSRF_COOKIE;
}
export const CSRF_HEADER = 'X-XSRF-TOKEN';
/** Hidden field name for the server-rendered HTML forms of the local payment pages. */
export const CSRF_FORM_FIELD = '_csrf';
/** `GET` sets the cookie when the browser lacks it and answers `{ token }` (never cached). */
export const CSRF_TOKEN_PATH = '/api/csrf-token';
