import { describe, expect, it } from 'vitest';
import { resolveClientIp } from './client-ip.ts';

describe('resolveClientIp', () => {
  it('uses a public peer address and ignores what it claims in X-Forwarded-For', () => {
    expect(resolveClientIp('198.51.100.4', '203.0.113.9')).toBe('198.51.100.4');
  });

  it('behind our proxy, takes the rightmost public hop (the one the proxy saw)', () => {
    expect(resolveClientIp('10.0.0.2', '1.2.3.4, 203.0.113.9')).toBe('203.0.113.9');
    expect(resolveClientIp('::ffff:127.0.0.1', '203.0.113.9, 10.0.0.7')).toBe('203.0.113.9');
    expect(resolveClientIp('::1', 'garbage, 2001:db8::1')).toBe('2001:db8::1');
  });

  it('falls back to the peer, or to the leftmost private hop', () => {
    expect(resolveClientIp('127.0.0.1', undefined)).toBe('127.0.0.1');
    expect(resolveClientIp('127.0.0.1', '192.168.1.5, 10.0.0.1')).toBe('192.168.1.5');
    expect(resolveClientIp(undefined, undefined)).toBe('unknown');
  });
});
