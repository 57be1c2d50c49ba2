import pg from 'pg';

/**
 * Called with a notification's payload, or with `undefined` when notifications may have been
 * missed (the listening connection dropped and was opened again): treat it as "something changed".
 */
export type NotificationHandler = (payload: string | undefined) => void;

export interface Notifications {
  /** Listens on `channel` until the returned function is called. */
  listen(channel: string, handler: NotificationHandler): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

const RECONNECT_DELAY_MS = 1_000;

/**
 * PostgreSQL `LISTEN` on one dedicated connection (pooled connections can't hold a LISTEN). When it
 * drops (a server restart, a network cut), it reconnects every second and tells each handler it
 * may have missed something, so a cache over the data is cleared rather than left stale.
 */
export function createPgNotifications(
  connectionString: string,
  settings: { options?: string } = {},
): Notifications {
  const handlers = new Map<string, Set<NotificationHandler>>();
  let client: pg.Client | undefined;
  let connecting: Promise<pg.Client | undefined> | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const quote = (channel: string) => `"${channel.replaceAll('"', '""')}"`;

  function notifyAll(payload: string | undefined, channel?: string): void {
    for (const [name, set] of handlers) {
      if (channel !== undefined && name !== channel) continue;
      for (const handler of set) handler(payload);
    }
  }

  function scheduleReconnect(): void {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect().then((fresh) => {
        // Anything published while we were away is unknown: every listener starts over.
        if (fresh) notifyAll(undefined);
      });
    }, RECONNECT_DELAY_MS);
    retry.unref();
  }

  async function connect(): Promise<pg.Client | undefined> {
    if (client) return client;
    if (connecting) return connecting;
    connecting = (async () => {
      const next = new pg.Client({
        connectionString,
        connectionTimeoutMillis: 5_000,
        ...(settings.options ? { options: settings.options } : {}),
      });
      const lost = () => {
        if (client === next) client = undefined;
        next.removeAllListeners();
        next.on('error', () => undefined);
        void next.end().catch(() => undefined);
        scheduleReconnect();
      };
      next.on('error', lost);
      next.on('end', lost);
      next.on('notification', (message) => notifyAll(message.payload, message.channel));
      try {
        await next.connect();
        for (const channel of handlers.keys()) await next.query(`LISTEN ${quote(channel)}`);
        if (closed) {
          await next.end();
          return undefined;
        }
        client = next;
        return next;
      } catch {
        lost();
        return undefined;
      } finally {
        connecting = undefined;
      }
    })();
    return connecting;
  }

  return {
    async listen(channel, handler) {
      let set = handlers.get(channel);
      const first = !set;
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
      }
      set.add(handler);
      const open = client;
      if (!open) await connect();
      else if (first) await open.query(`LISTEN ${quote(channel)}`).catch(() => undefined);
      return async () => {
        set.delete(handler);
        if (set.size > 0) return;
        handlers.delete(channel);
        await client?.query(`UNLISTEN ${quote(channel)}`).catch(() => undefined);
      };
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const open = client;
      client = undefined;
      if (open) {
        open.removeAllListeners();
        open.on('error', () => undefined);
        await open.end().catch(() => undefined);
      }
    },
  };
}
