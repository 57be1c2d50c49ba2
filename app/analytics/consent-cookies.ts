/**
 * The two cookies of the cookie banner (docs/product-rules.md#behaviour, #constants; decision 010): the consent cookie records
 * "Accept all", the dismissed cookie records that the banner was answered at all. Both hold `true`
 * for 3650 days, SameSite=Strict, Path=/; the consent cookie holds `false` once consent was
 * withdrawn (decision 138).
 */
export const CONSENT_COOKIE = 'orgsmith_cookie_consent';
export const DISMISSED_COOKIE = 'orgsmith_cookie_dismissed';
export const CONSENT_COOKIE_DAYS = 3650;

const secondsPerDay = 24 * 60 * 60;

export interface ConsentState {
  /** The visitor chose "Accept all". */
  consented: boolean;
  /** The visitor answered the banner (either choice). */
  dismissed: boolean;
  /** The visitor withdrew an earlier consent: analytics stay off until they accept again. */
  withdrawn: boolean;
}

function cookieValue(cookieHeader: string, name: string): string | undefined {
  for (const part of cookieHeader.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

export function readConsentState(cookieHeader: string): ConsentState {
  const consent = cookieValue(cookieHeader, CONSENT_COOKIE);
  const consented = consent === 'true';
  return {
    consented,
    dismissed: consented || cookieValue(cookieHeader, DISMISSED_COOKIE) === 'true',
    withdrawn: consent === 'false',
  };
}

/** The `document.cookie` assignment for one banner cookie; `now` fixes the Expires date for tests. */
export function bannerCookie(
  name: string,
  options: { secure: boolean; now: Date },
  value: 'true' | 'false' = 'true',
): string {
  const maxAge = CONSENT_COOKIE_DAYS * secondsPerDay;
  const expires = new Date(options.now.getTime() + maxAge * 1000).toUTCString();
  const parts = [
    `${name}=${value}`,
    `Max-Age=${maxAge}`,
    `Expires=${expires}`,
    'Path=/',
    'SameSite=Strict',
  ];
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}

/** The cookies a banner choice writes: "Accept all" both, "Only essential" only the dismissed one. */
export function cookiesForChoice(choice: 'all' | 'essential'): string[] {
  return choice === 'all' ? [CONSENT_COOKIE, DISMISSED_COOKIE] : [DISMISSED_COOKIE];
}

/** Google Analytics' own cookies: `_ga`, `_ga_<container>`, and the older `_gid` and `_gat*`. */
const analyticsCookieName = /^_(?:ga(?:_.+)?|gid|gat(?:_.+)?)$/;

/**
 * The `document.cookie` assignments that delete every analytics cookie the page can see, on the
 * current host and on each parent domain: the tag sets them on the highest domain it may, and a
 * cookie is deleted only by naming the domain it was set for. A domain that never held it is a no-op.
 */
export function analyticsCookieDeletions(cookieHeader: string, hostname: string): string[] {
  const names = new Set<string>();
  for (const part of cookieHeader.split(';')) {
    const name = part.trim().split('=')[0] ?? '';
    if (analyticsCookieName.test(name)) names.add(name);
  }
  const domains = [''];
  // An address has no parent domains; a name has itself and each parent down to two labels.
  if (!/^[\d.]+$|:/.test(hostname)) {
    const labels = hostname.split('.');
    const last = Math.max(labels.length - 2, 0);
    for (let start = 0; start <= last; start++) {
      domains.push(`; Domain=${labels.slice(start).join('.')}`);
    }
  }
  const expired = 'Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/';
  return [...names].flatMap((name) => domains.map((domain) => `${name}=; ${expired}${domain}`));
}
