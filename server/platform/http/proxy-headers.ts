import type { BlockList } from 'node:net';
import type { Context } from 'hono';
import { isTrustedProxy } from './trusted-proxies.ts';
import { nodeIncoming } from './node-bindings.ts';
import type { AppEnv } from './types.ts';

/**
 * A header only our own proxy may set (`X-Forwarded-Proto`, `X-Request-Id`): its value when the
 * connection comes from a `TRUST_PROXY` peer, else undefined, as if it had not been sent
 * (decisions 128, 160). `peer` is undefined only for in-process requests (tests), which are
 * believed as `X-Forwarded-For` is.
 */
export function fromTrustedProxy(
  peer: string | undefined,
  trusted: BlockList,
  value: string | undefined,
): string | undefined {
  if (peer !== undefined && !isTrustedProxy(trusted, peer)) return undefined;
  return value;
}

/** `fromTrustedProxy` for a request through Hono (`trustedProxies` is set first in the chain). */
export function proxyHeader(c: Context<AppEnv>, name: string): string | undefined {
  const incoming = nodeIncoming(c);
  const peer = incoming ? (incoming.socket.remoteAddress ?? '') : undefined;
  return fromTrustedProxy(peer, c.get('trustedProxies'), c.req.header(name));
}
