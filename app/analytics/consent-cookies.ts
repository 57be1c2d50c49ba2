/**
 * The two cookies of the cookie banner (docs/product-rules.md#behaviour, #constants; decision 010): the consent cookie records
 * "Accept all", the dismissed cookie records that the banner was answered at all. Both hold `true`
 * for 3650 days, SameSite=Strict, Path=/.
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
}

function cookieValue(cookieHeader: string, name: string): string | undefined {
  for (const part of cookieHeader.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

export function readConsentState(cookieHeader: string): ConsentState {
  const consented = cookieValue(cookieHeader, CONSENT_COOKIE) === 'true';
  return {
    consented,
    dismissed: consented || cookieValue(cookieHeader, DISMISSED_COOKIE) === 'true',
  };
}

/** The `document.cookie` assignment for one banner cookie; `now` fixes the Expires date for tests. */
export function bannerCookie(name: string, options: { secure: boolean; now: Date }): string {
  const maxAge = CONSENT_COOKIE_DAYS * secondsPerDay;
  const expires = new Date(options.now.getTime() + maxAge * 1000).toUTCString();
  const parts = [
    `${name}=true`,
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
