import { describe, expect, it } from 'vitest';
import {
  bannerCookie,
  CONSENT_COOKIE,
  cookiesForChoice,
  DISMISSED_COOKIE,
  readConsentState,
} from './consent-cookies.ts';

describe('consent cookies', () => {
  it('writes value true for 3650 days, SameSite=Strict, Path=/', () => {
    const now = new Date('2026-01-15T10:00:00Z');
    const cookie = bannerCookie(DISMISSED_COOKIE, { secure: false, now });
    expect(cookie).toBe(
      `${DISMISSED_COOKIE}=true; Max-Age=315360000; Expires=Sun, 13 Jan 2036 10:00:00 GMT; Path=/; SameSite=Strict`,
    );
    expect(bannerCookie(CONSENT_COOKIE, { secure: true, now })).toMatch(/; Secure$/);
  });

  it('maps the two choices to their cookies', () => {
    expect(cookiesForChoice('all')).toEqual([CONSENT_COOKIE, DISMISSED_COOKIE]);
    expect(cookiesForChoice('essential')).toEqual([DISMISSED_COOKIE]);
  });

  it('reads the state back from a cookie header', () => {
    expect(readConsentState('')).toEqual({ consented: false, dismissed: false });
    expect(readConsentState(`XSRF-TOKEN=abc; ${DISMISSED_COOKIE}=true`)).toEqual({
      consented: false,
      dismissed: true,
    });
    expect(readConsentState(`${CONSENT_COOKIE}=true; ${DISMISSED_COOKIE}=true`)).toEqual({
      consented: true,
      dismissed: true,
    });
    expect(readConsentState(`${CONSENT_COOKIE}=false`)).toEqual({
      consented: false,
      dismissed: false,
    });
    expect(readConsentState(`x${CONSENT_COOKIE}=true`).consented).toBe(false);
  });
});
