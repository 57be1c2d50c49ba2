import { describe, expect, it } from 'vitest';
import { rateLimitBucket, resolveClientIp } from './client-ip.ts';
import { DEFAULT_TRUST_PROXY, isTrustedProxy, parseTrustProxy } from '../http/trusted-proxies.ts';

const defaults = parseTrustProxy(DEFAULT_TRUST_PROXY);

describe('resolveClientIp', () => {
  it('uses an untrusted peer address and ignores what it claims in X-Forwarded-For', () => {
    expect(resolveClientIp('198.51.100.4', '203.0.113.9', defaults)).toBe('198.51.100.4');
    expect(resolveClientIp('::ffff:198.51.100.4', '203.0.113.9', defaults)).toBe('198.51.100.4');
  });

  it('behind our proxy, takes the rightmost hop that is not one of our proxies', () => {
    expect(resolveClientIp('10.0.0.2', '1.2.3.4, 203.0.113.9', defaults)).toBe('203.0.113.9');
    expect(resolveClientIp('::ffff:127.0.0.1', '203.0.113.9, 10.0.0.7', defaults)).toBe(
      '203.0.113.9',
    );
    expect(resolveClientIp('::1', 'garbage, 2001:db8::1', defaults)).toBe('2001:db8::1');
  });

  it('falls back to the peer, or to the leftmost proxy hop', () => {
    expect(resolveClientIp('127.0.0.1', undefined, defaults)).toBe('127.0.0.1');
    expect(resolveClientIp('127.0.0.1', '192.168.1.5, 10.0.0.1', defaults)).toBe('192.168.1.5');
    expect(resolveClientIp(undefined, undefined, defaults)).toBe('unknown');
  });

  it('believes nobody with TRUST_PROXY=none, and only the listed proxy otherwise', () => {
    expect(resolveClientIp('10.0.0.2', '203.0.113.9', parseTrustProxy('none'))).toBe('10.0.0.2');
    const one = parseTrustProxy('192.0.2.10');
    expect(resolveClientIp('192.0.2.10', '203.0.113.9', one)).toBe('203.0.113.9');
    expect(resolveClientIp('10.0.0.2', '203.0.113.9', one)).toBe('10.0.0.2');
  });
});

describe('parseTrustProxy', () => {
  it('knows the default ranges exactly: fe80::/10 is link-local, not trusted by default', () => {
    for (const ip of ['127.0.0.1', '::1', '10.1.2.3', '172.31.0.1', '192.168.0.1', 'fd00::1']) {
      expect(isTrustedProxy(defaults, ip), ip).toBe(true);
    }
    for (const ip of ['172.32.0.1', '8.8.8.8', 'fe80::1', 'febf::1', '2001:db8::1', 'nonsense']) {
      expect(isTrustedProxy(defaults, ip), ip).toBe(false);
    }
    const linkLocal = parseTrustProxy('linklocal');
    for (const ip of ['fe80::1', 'fe90::1', 'febf::1', '169.254.1.1']) {
      expect(isTrustedProxy(linkLocal, ip), ip).toBe(true);
    }
    expect(isTrustedProxy(linkLocal, 'fec0::1')).toBe(false);
  });

  it('takes addresses and CIDR blocks and refuses anything else', () => {
    const list = parseTrustProxy('203.0.113.0/24, 2001:db8:1::/48');
    expect(isTrustedProxy(list, '203.0.113.77')).toBe(true);
    expect(isTrustedProxy(list, '2001:db8:1:ffff::1')).toBe(true);
    expect(isTrustedProxy(list, '2001:db8:2::1')).toBe(false);
    expect(() => parseTrustProxy('10.0.0.0/33')).toThrow(/prefix/);
    expect(() => parseTrustProxy('proxy.example.com')).toThrow(/not an address/);
  });
});

describe('rateLimitBucket', () => {
  it('counts IPv4 per address and IPv6 per /64', () => {
    expect(rateLimitBucket('203.0.113.9')).toBe('203.0.113.9');
    expect(rateLimitBucket('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(rateLimitBucket('2001:0db8:0001:0002::1')).toBe('2001:db8:1:2::/64');
    expect(rateLimitBucket('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(rateLimitBucket('2001:db8::ffff')).toBe(rateLimitBucket('2001:db8:0:0:1:2:3:4'));
    expect(rateLimitBucket('::1')).toBe('0:0:0:0::/64');
  });
});
