import { describe, expect, it } from 'vitest';
import { sessionCookieName, sessionIdOfCookieHeader } from './session-cookie.ts';

describe('the licence page session cookie', () => {
  it('is __Host- prefixed over HTTPS and unprefixed on plain HTTP', () => {
    expect(sessionCookieName(true)).toBe('__Host-orgsmith-licences');
    expect(sessionCookieName(false)).toBe('orgsmith-licences');
  });

  it('reads only the name of the origin’s scheme, so a cookie planted over HTTP never counts on HTTPS', () => {
    const header = 'XSRF-TOKEN=a; orgsmith-licences=planted';
    expect(sessionIdOfCookieHeader(header, false)).toBe('planted');
    expect(sessionIdOfCookieHeader(header, true)).toBeUndefined();
    expect(sessionIdOfCookieHeader('__Host-orgsmith-licences=abc=def; x=y', true)).toBe('abc=def');
    expect(sessionIdOfCookieHeader(null, true)).toBeUndefined();
    expect(sessionIdOfCookieHeader('orgsmith-licences=', false)).toBeUndefined();
  });
});
