import { describe, expect, it } from 'vitest';
import { parseTrustProxy } from './trusted-proxies.ts';
import { fromTrustedProxy } from './proxy-headers.ts';

describe('fromTrustedProxy', () => {
  const trusted = parseTrustProxy('loopback,10.0.0.0/8');

  it('believes a trusted peer, and an in-process request', () => {
    expect(fromTrustedProxy('127.0.0.1', trusted, 'https')).toBe('https');
    expect(fromTrustedProxy('::ffff:10.1.2.3', trusted, 'https')).toBe('https');
    expect(fromTrustedProxy(undefined, trusted, 'https')).toBe('https');
  });

  it('ignores anyone else, and a socket without an address', () => {
    expect(fromTrustedProxy('203.0.113.9', trusted, 'https')).toBeUndefined();
    expect(fromTrustedProxy('', trusted, 'https')).toBeUndefined();
    expect(fromTrustedProxy('127.0.0.1', parseTrustProxy('none'), 'https')).toBeUndefined();
  });
});
