import { describe, expect, it } from 'vitest';
import { securityTxt } from './security-txt.ts';

describe('securityTxt (RFC 9116)', () => {
  it('has the required fields, expiring within a year', () => {
    const now = new Date('2026-11-25T15:00:00Z');
    const text = securityTxt('https://orgsmith.io', now);
    const fields = Object.fromEntries(
      text
        .trim()
        .split('\n')
        .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
    );
    expect(fields.Contact).toBe('mailto:security@orgsmith.io');
    expect(fields.Canonical).toBe('https://orgsmith.io/.well-known/security.txt');
    expect(fields.Policy).toBe('https://orgsmith.io/support#security');
    const expires = new Date(fields.Expires ?? '');
    expect(expires.getTime()).toBeGreaterThan(now.getTime());
    expect(expires.getTime() - now.getTime()).toBeLessThan(365 * 24 * 60 * 60 * 1000);
  });
});
