import {
  CSRF_COOKIE,
  CSRF_HEADER,
  CSRF_HOST_COOKIE,
  CSRF_TOKEN_PATH,
} from '#shared/contracts/csrf.ts';

/**
 * The site's one way to call its own server and the account service. Non-GET/HEAD requests to
 * relative URLs (and to the configured account-service origin) carry the CSRF token from the
 * `XSRF-TOKEN` cookie in the `X-XSRF-TOKEN` header. Pages don't set that cookie (their HTML is
 * the same for every visitor), so the first unsafe request asks the server for it (decision 101).
 */

export function readCookie(
  name: string,
  cookieHeader: string = document.cookie,
): string | undefined {
  for (const part of cookieHeader.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

function isRelative(url: string): boolean {
  return url.startsWith('/') && !url.startsWith('//');
}

export interface ApiFetchOptions extends RequestInit {
  /** Absolute base of the account service ('' = same origin); requests under it count as ours. */
  trustedBase?: string;
}

/** The visitor's CSRF token: from the cookie, or fetched once (the answer sets the cookie). */
async function csrfToken(signal: AbortSignal | null | undefined): Promise<string | undefined> {
  // `__Host-XSRF-TOKEN` on an https origin, `XSRF-TOKEN` on http (decision 128).
  const stored = readCookie(CSRF_HOST_COOKIE) ?? readCookie(CSRF_COOKIE);
  if (stored) return stored;
  const response = await fetch(CSRF_TOKEN_PATH, { credentials: 'same-origin', signal });
  if (!response.ok) return undefined;
  const body: unknown = await response.json();
  const token = typeof body === 'object' && body !== null ? Reflect.get(body, 'token') : undefined;
  return typeof token === 'string' ? token : undefined;
}

export async function apiFetch(url: string, options: ApiFetchOptions = {}): Promise<Response> {
  const { trustedBase, ...init } = options;
  const method = (init.method ?? 'GET').toUpperCase();
  const headers = new Headers(init.headers);
  const ours = isRelative(url) || (Boolean(trustedBase) && url.startsWith(`${trustedBase}/`));
  if (ours && method !== 'GET' && method !== 'HEAD') {
    const token = await csrfToken(init.signal);
    if (token) headers.set(CSRF_HEADER, token);
  }
  return fetch(url, { ...init, method, headers, credentials: ours ? 'include' : init.credentials });
}

/** Reads the `Error` code of an error body (`{"Error":"TrialLicenseAlreadyUsed"}`), if any. */
export async function readErrorCode(response: Response): Promise<string | undefined> {
  try {
    const body: unknown = await response.json();
    if (
      typeof body === 'object' &&
      body !== null &&
      'Error' in body &&
      typeof body.Error === 'string'
    ) {
      return body.Error;
    }
  } catch {
    // Not JSON: no code.
  }
  return undefined;
}
