import { isIP } from 'node:net';
import type { Context } from 'hono';

/** Loopback, private and link-local ranges: where our own load balancer or proxy sits. */
function isPrivate(address: string): boolean {
  const ip = address.replace(/^::ffff:/, '');
  if (isIP(ip) === 4) {
    const [a = 0, b = 0] = ip.split('.').map(Number);
    return (
      a === 10 ||
      a === 127 ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 169 && b === 254)
    );
  }
  const lower = ip.toLowerCase();
  return (
    lower === '::1' || lower.startsWith('fc') || lower.startsWith('fd') || lower.startsWith('fe80')
  );
}

function socketAddress(c: Context): string | undefined {
  const env: unknown = c.env;
  if (typeof env !== 'object' || env === null) return undefined;
  const incoming: unknown = Reflect.get(env, 'incoming');
  if (typeof incoming !== 'object' || incoming === null) return undefined;
  const socket: unknown = Reflect.get(incoming, 'socket');
  if (typeof socket !== 'object' || socket === null) return undefined;
  const address: unknown = Reflect.get(socket, 'remoteAddress');
  return typeof address === 'string' ? address : undefined;
}

/**
 * The client address for rate limiting (decision 053). `X-Forwarded-For` is believed only when
 * the connection comes from a private address (our proxy); then the rightmost public hop counts,
 * which a client cannot forge. Without a socket (in-process requests) the header is trusted.
 */
export function resolveClientIp(
  peer: string | undefined,
  forwardedFor: string | undefined,
): string {
  if (peer && !isPrivate(peer)) return peer;
  const hops = (forwardedFor ?? '')
    .split(',')
    .map((hop) => hop.trim())
    .filter((hop) => isIP(hop.replace(/^::ffff:/, '')) !== 0);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] ?? '';
    if (!isPrivate(hop) || i === 0) return hop;
  }
  return peer ?? 'unknown';
}

export function clientIp(c: Context): string {
  return resolveClientIp(socketAddress(c), c.req.header('x-forwarded-for'));
}
