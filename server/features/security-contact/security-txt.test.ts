import { describe, expect, it } from 'vitest';
import { siteConfig } from '#shared/site-config.ts';
import { parseSecurityTxtExpires, securityTxt, securityTxtExpiryProblem } from './security-txt.ts';

describe('securityTxt (RFC 9116)', () => {
  it('has the required fields, expiring on the configured date', () => {
    const expires = new Date('2027-05-31T00:00:00Z');
    const text = securityTxt('https://orgsmith.io', expires);
    const fields = Object.fromEntries(
      text
        .trim()
        .split('\n')
        .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
    );
    expect(fields.Contact).toBe('mailto:security@orgsmith.io');
    expect(fields.Canonical).toBe('https://orgsmith.io/.well-known/security.txt');
    expect(fields.Policy).toBe('https://orgsmith.io/security#report');
    expect(fields.Expires).toBe('2027-05-31T00:00:00.000Z');
  });
});

describe('parseSecurityTxtExpires', () => {
  it('reads a day, or a date and time with its zone', () => {
    expect(parseSecurityTxtExpires('2027-05-31')?.toISOString()).toBe('2027-05-31T00:00:00.000Z');
    expect(parseSecurityTxtExpires('2027-05-31T12:00:00+02:00')?.toISOString()).toBe(
      '2027-05-31T10:00:00.000Z',
    );
    expect(parseSecurityTxtExpires(siteConfig.securityTxtExpires)).toBeInstanceOf(Date);
  });

  it('refuses anything else', () => {
    for (const value of [
      '',
      'tomorrow',
      '2027-02-30',
      '2027-13-01',
      '31.05.2027',
      '2027-05-31T00:00',
    ]) {
      expect(parseSecurityTxtExpires(value), value).toBeUndefined();
    }
  });
});

describe('securityTxtExpiryProblem', () => {
  const expires = new Date('2027-05-31T00:00:00Z');
  it('is nothing while more than 30 days and less than a year are left', () => {
    expect(securityTxtExpiryProblem(expires, new Date('2026-11-27T00:00:00Z'))).toBeUndefined();
  });

  it('warns when past, within 30 days, or over a year ahead', () => {
    expect(securityTxtExpiryProblem(expires, new Date('2027-06-01T00:00:00Z'))).toMatch(
      /has expired/,
    );
    expect(securityTxtExpiryProblem(expires, new Date('2027-05-11T00:00:00Z'))).toBe(
      'security.txt expires in 20 days: renew SECURITY_TXT_EXPIRES',
    );
    expect(securityTxtExpiryProblem(expires, new Date('2026-05-01T00:00:00Z'))).toMatch(
      /more than a year/,
    );
  });
});
