import { BlockList, isIP } from 'node:net';

/** Named ranges `TRUST_PROXY` accepts besides addresses and CIDR blocks (decision 128). */
const namedRanges: Record<string, Array<[string, number, 'ipv4' | 'ipv6']>> = {
  loopback: [
    ['127.0.0.0', 8, 'ipv4'],
    ['::1', 128, 'ipv6'],
  ],
  private: [
    ['10.0.0.0', 8, 'ipv4'],
    ['172.16.0.0', 12, 'ipv4'],
    ['192.168.0.0', 16, 'ipv4'],
    ['fc00::', 7, 'ipv6'],
  ],
  linklocal: [
    ['169.254.0.0', 16, 'ipv4'],
    ['fe80::', 10, 'ipv6'],
  ],
};

export const DEFAULT_TRUST_PROXY = 'loopback,private';

/** `::ffff:10.0.0.1` is the IPv4 address 10.0.0.1 as an IPv6 socket reports it. */
export function unmapIpv4(address: string): string {
  const unmapped = address.replace(/^::ffff:/i, '');
  return isIP(unmapped) === 4 ? unmapped : address;
}

/**
 * The proxies whose `X-Forwarded-For` we believe, from `TRUST_PROXY`: a comma-separated list of
 * `loopback`, `private`, `linklocal`, addresses and CIDR blocks, or `none`. Throws a readable
 * message for an entry it does not understand.
 */
export function parseTrustProxy(value: string): BlockList {
  const list = new BlockList();
  const entries = value
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  if (entries.length === 1 && entries[0] === 'none') return list;
  for (const entry of entries) {
    const named = namedRanges[entry];
    if (named) {
      for (const [network, prefix, family] of named) list.addSubnet(network, prefix, family);
      continue;
    }
    const [address = '', prefixText] = entry.split('/');
    const version = isIP(address);
    if (version === 0)
      throw new Error(`"${entry}" is not an address, a CIDR block or a range name`);
    const family = version === 4 ? 'ipv4' : 'ipv6';
    if (prefixText === undefined) {
      list.addAddress(address, family);
      continue;
    }
    const prefix = Number(prefixText);
    const max = version === 4 ? 32 : 128;
    if (!/^\d+$/.test(prefixText) || prefix > max) {
      throw new Error(`"${entry}" has a prefix length outside 0–${max}`);
    }
    list.addSubnet(address, prefix, family);
  }
  return list;
}

/** Whether `address` (as a socket or a header reports it) is one of our proxies. */
export function isTrustedProxy(list: BlockList, address: string): boolean {
  const ip = unmapIpv4(address);
  const version = isIP(ip);
  if (version === 0) return false;
  return list.check(ip, version === 4 ? 'ipv4' : 'ipv6');
}
