import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildService } from '#server/app.ts';
import { databaseTargets } from '../support/databases.ts';
import { stubServerBuild } from '../support/stub-server-build.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { sendOversizedBody } from './support/oversized-body.ts';

/**
 * Issue 25, smaller item 4: GET and HEAD bodies were exempt from the body limit and read whole
 * (300 MB in 0.73 s to `/pricing`). A GET or HEAD that announces a body is refused at once with
 * 400, before its body is read, on stored pages (the fast path) as on everything else.
 */
const FORTY_MB = 40 * 1024 * 1024;
/** What the server may read of a refused body: its headers and a short linger (decision 222). */
const TWO_MB = 2 * 1024 * 1024;

// No database work is involved: one database suffices.
const [target] = databaseTargets;

describe('GET and HEAD with a body, on a server built as production builds it', () => {
  let t: TestApp;
  let server: Server;
  let port: number;
  /** The server's sockets, to count what it read (the client's count includes kernel buffers). */
  const sockets: Socket[] = [];
  beforeAll(async () => {
    if (!target) throw new Error('no database target');
    t = await createTestApp(target);
    const { app, storedPages } = buildService(t.deps, { serverBuild: stubServerBuild() });
    const hono = getRequestListener(app.fetch);
    server = createServer((incoming, outgoing) => {
      if (!storedPages?.(incoming, outgoing)) void hono(incoming, outgoing);
    });
    server.on('connection', (socket: Socket) => sockets.push(socket));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
    // The page is stored now: the next requests for it take the fast path.
    expect((await fetch(`http://127.0.0.1:${port}/imprint`)).status).toBe(200);
  });
  afterAll(async () => {
    server.closeAllConnections();
    server.close();
    await t.close();
  });

  for (const method of ['GET', 'HEAD']) {
    for (const chunked of [false, true]) {
      for (const path of ['/imprint', '/', '/account/v1/releases']) {
        it(`refuses ${method} ${path} with a ${chunked ? 'chunked' : 'declared'} 40 MB body, unread`, async () => {
          const known = sockets.length;
          const result = await sendOversizedBody({
            port,
            method,
            path,
            totalBytes: FORTY_MB,
            chunked,
            contentType: 'text/plain',
          });
          expect(result.status, result.response).toBe(400);
          if (method === 'GET') {
            expect(result.response).toContain(
              '{"Error":"InvalidRequest","message":"A GET or HEAD request takes no body."}',
            );
          }
          // A moment for a server that went on reading after it answered to show it.
          await new Promise((resolve) => setTimeout(resolve, 100));
          const read = sockets.slice(known).reduce((sum, socket) => sum + socket.bytesRead, 0);
          expect(read).toBeLessThan(TWO_MB);
          expect(result.bytesWritten).toBeLessThan(FORTY_MB);
        });
      }
    }
  }

  it('still serves a GET with `Content-Length: 0`, and a plain one', async () => {
    const empty = await fetch(`http://127.0.0.1:${port}/imprint`, {
      headers: { 'Content-Length': '0' },
    });
    expect(empty.status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/imprint`)).status).toBe(200);
  });
});
