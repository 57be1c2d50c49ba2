import { describe, expect, it } from 'vitest';
import {
  analyticsCookieDeletions,
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
    expect(readConsentState('')).toEqual({ consented: false, dismissed: false, withdrawn: false });
    expect(readConsentState(`XSRF-TOKEN=abc; ${DISMISSED_COOKIE}=true`)).toEqual({
      consented: false,
      dismissed: true,
      withdrawn: false,
    });
    expect(readConsentState(`${CONSENT_COOKIE}=true; ${DISMISSED_COOKIE}=true`)).toEqual({
      consented: true,
      dismissed: true,
      withdrawn: false,
    });
    expect(readConsentState(`${CONSENT_COOKIE}=false; ${DISMISSED_COOKIE}=true`)).toEqual({
      consented: false,
      dismissed: true,
      withdrawn: true,
    });
    expect(readConsentState(`x${CONSENT_COOKIE}=true`).consented).toBe(false);
  });

  it('records a withdrawal as false, with the same lifetime', () => {
    const now = new Date('2026-01-15T10:00:00Z');
    expect(bannerCookie(CONSENT_COOKIE, { secure: false, now }, 'false')).toBe(
      `${CONSENT_COOKIE}=false; Max-Age=315360000; Expires=Sun, 13 Jan 2036 10:00:00 GMT; Path=/; SameSite=Strict`,
    );
  });

  it('deletes every analytics cookie on the host and each parent domain', () => {
    const expired = 'Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/';
    const header = `_ga=GA1.1.5.6; ${CONSENT_COOKIE}=true; _ga_ABC123=GS1.1; _gid=x; _gat_UA=1; x_ga=1; _gax=2`;
    expect(analyticsCookieDeletions(header, 'www.orgsmith.io')).toEqual(
      ['_ga', '_ga_ABC123', '_gid', '_gat_UA'].flatMap((name) => [
        `${name}=; ${expired}`,
        `${name}=; ${expired}; Domain=www.orgsmith.io`,
        `${name}=; ${expired}; Domain=orgsmith.io`,
      ]),
    );
    expect(analyticsCookieDeletions('_ga=1', 'localhost')).toEqual([
      `_ga=; ${expired}`,
      `_ga=; ${expired}; Domain=localhost`,
    ]);
    expect(analyticsCookieDeletions('_ga=1', '127.0.0.1')).toEqual([`_ga=; ${expired}`]);
    expect(analyticsCookieDeletions(`${CONSENT_COOKIE}=true`, 'orgsmith.io')).toEqual([]);
  });
});
