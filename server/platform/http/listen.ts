import type { Server } from 'node:http';

/** Loopback in both families: `localhost` resolves to either, `::1` first on most systems. */
export const LOOPBACK_HOSTS = ['127.0.0.1', '::1'] as const;

/** Errors of an address this machine does not have (e.g. `::1` with IPv6 turned off). */
const ADDRESS_MISSING = new Set(['EADDRNOTAVAIL', 'EAFNOSUPPORT']);

/** What decides where the server listens: `HOST`, and whether payments are test payments for want of keys. */
export interface ListenSettings {
  HOST?: string;
  payments: { loopbackOnly: boolean };
}

/**
 * Where the server listens (decision 156): `HOST` when set (`localhost` = both loopback
 * addresses); else loopback only while payments are test payments for want of keys; else every
 * interface (`undefined`: node's default, `::` with IPv4 mapped, or 0.0.0.0 without IPv6).
 */
export function listenHostsOf(env: ListenSettings): Array<string | undefined> {
  if (env.HOST === 'localhost') return [...LOOPBACK_HOSTS];
  if (env.HOST !== undefined) return [env.HOST];
  return env.payments.loopbackOnly ? [...LOOPBACK_HOSTS] : [undefined];
}

/** Where the operator console listens (decision 226): `CONSOLE_HOST`, else loopback only. */
export function consoleHostsOf(env: { CONSOLE_HOST?: string | undefined }): string[] {
  if (env.CONSOLE_HOST === undefined || env.CONSOLE_HOST === 'localhost')
    return [...LOOPBACK_HOSTS];
  return [env.CONSOLE_HOST];
}

export interface Listening {
  /** One server per address bound, all with the same request handling. */
  servers: Server[];
  /** The addresses bound, e.g. `127.0.0.1` and `::1`, or `::` for every interface. */
  addresses: string[];
  port: number;
}

function code(error: unknown): string | undefined {
  const value: unknown =
    typeof error === 'object' && error !== null ? Reflect.get(error, 'code') : undefined;
  return typeof value === 'string' ? value : undefined;
}

function listen(server: Server, port: number, host: string | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * Listens on every host with a server of its own, all on one port. Of several hosts, one this
 * machine does not have (`::1` with IPv6 off) is left out; any other failure (the port in use)
 * closes what was bound and rejects, as does having none.
 */
export async function listenOn(
  hosts: ReadonlyArray<string | undefined>,
  port: number,
  createServer: () => Server,
): Promise<Listening> {
  const bound: Listening = { servers: [], addresses: [], port };
  try {
    for (const host of hosts) {
      const server = createServer();
      try {
        await listen(server, bound.port, host);
      } catch (error) {
        if (hosts.length > 1 && ADDRESS_MISSING.has(code(error) ?? '')) continue;
        throw error;
      }
      const address = server.address();
      if (typeof address === 'object' && address) {
        bound.port = address.port;
        bound.addresses.push(address.address);
      }
      bound.servers.push(server);
    }
    if (bound.servers.length === 0) {
      throw new Error(`none of ${hosts.join(', ')} is an address of this machine`);
    }
    return bound;
  } catch (error) {
    await Promise.all(
      bound.servers.map((server) => new Promise((done) => server.close(() => done(undefined)))),
    );
    throw error;
  }
}

/** The start line's message: where it listens, and why only there when that is loopback alone. */
export function listeningMessage(listening: Listening, env: ListenSettings): string {
  const where = listening.addresses.join(' and ');
  if (env.HOST === undefined && env.payments.loopbackOnly) {
    return (
      `listening on loopback only (${where}): payments are test payments without Stripe keys, ` +
      'so only this machine can reach them (set HOST with STRIPE_SECRET_KEY and ' +
      'STRIPE_WEBHOOK_SECRET, or with PAYMENT_PROVIDER=local, to listen elsewhere)'
    );
  }
  return `listening on ${where}`;
}
