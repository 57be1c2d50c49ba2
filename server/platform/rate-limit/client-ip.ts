import type { BlockList } from 'node:net';
import { isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { nodeIncoming } from '../http/node-bindings.ts';
import type { AppEnv } from '../http/types.ts';
import { isTrustedProxy, unmapIpv4 } from '../http/trusted-proxies.ts';

/**
 * The client address (decision 128). `X-Forwarded-For` is believed only when the connection
 * comes from a trusted proxy (`TRUST_PROXY`); then the rightmost hop that is not one of our
 * proxies is the client, which the client cannot forge. Without a socket (in-process requests in
 * tests) the header is believed.
 */
export function resolveClientIp(
  peer: string | undefined,
  forwardedFor: string | undefined,
  trusted: BlockList,
): string {
  if (peer && !isTrustedProxy(trusted, peer)) return unmapIpv4(peer);
  const hops = (forwardedFor ?? '')
    .split(',')
    .map((hop) => unmapIpv4(hop.trim()))
    .filter((hop) => isIP(hop) !== 0);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] ?? '';
    if (!isTrustedProxy(trusted, hop) || i === 0) return hop;
  }
  return peer ? unmapIpv4(peer) : 'unknown';
}

/**
 * What rate limits count as one client: an IPv4 address, or the /64 network of an IPv6 address,
 * since one subscriber is handed a whole /64 and could otherwise rotate through 2^64 addresses.
 */
export function rateLimitBucket(address: string): string {
  if (isIP(address) !== 6) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [
        ...headGroups,
        ...Array<string>(8 - headGroups.length - tailGroups.length).fill('0'),
        ...tailGroups,
      ]
    : headGroups;
  const network = groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, ''));
  return `${network.join(':')}::/64`;
}

/** The client's address as `TRUST_PROXY` lets us see it. */
export function clientIp(c: Context<AppEnv>): string {
  const peer = nodeIncoming(c) ? getConnInfo(c).remote.address : undefined;
  return resolveClientIp(peer, c.req.header('x-forwarded-for'), c.get('trustedProxies'));
}

/** The client as per-address rate limits count it (see `rateLimitBucket`). */
export function rateLimitClient(c: Context<AppEnv>): string {
  return rateLimitBucket(clientIp(c));
}
