import { once } from 'node:events';
import net from 'node:net';

/**
 * A TCP proxy in front of one server: what goes through it can be cut off and let back on without
 * touching the server, so a test takes PostgreSQL away from its own instances only (the shared
 * PostgreSQL other tests use keeps running).
 */
export interface TcpProxy {
  readonly port: number;
  /** Drops every connection and refuses new ones, as a stopped server does. */
  cut(): Promise<void>;
  /** Accepts connections again, on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const createServer = () =>
    net.createServer((client) => {
      const upstream = net.connect(target.port, target.host);
      track(client);
      track(upstream);
      client.pipe(upstream);
      upstream.pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  let server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('proxy has no port');
  const { port } = address;
  let open = true;

  async function shut() {
    if (!open) return;
    open = false;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  }

  return {
    port,
    cut: shut,
    async restore() {
      if (open) return;
      server = createServer();
      server.listen(port, '127.0.0.1');
      await once(server, 'listening');
      open = true;
    },
    close: shut,
  };
}
