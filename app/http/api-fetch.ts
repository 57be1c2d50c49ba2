/**
 * The site's one way to call its own server and the account service. Non-GET/HEAD requests to
 * relative URLs (and to the configured account-service origin) carry the CSRF token from the
 * `XSRF-TOKEN` cookie in the `X-XSRF-TOKEN` header (spec §7).
 */
export const CSRF_COOKIE = 'XSRF-TOKEN';
export const CSRF_HEADER = 'X-XSRF-TOKEN';

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

export function apiFetch(url: string, options: ApiFetchOptions = {}): Promise<Response> {
  const { trustedBase, ...init } = options;
  const method = (init.method ?? 'GET').toUpperCase();
  const headers = new Headers(init.headers);
  const ours = isRelative(url) || (Boolean(trustedBase) && url.startsWith(`${trustedBase}/`));
  if (ours && method !== 'GET' && method !== 'HEAD') {
    const token = readCookie(CSRF_COOKIE);
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
