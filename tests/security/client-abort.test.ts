import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { databaseTargets } from '../support/databases.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

/**
 * Issue 25, smaller item 3: a client that hung up in the middle of its body was logged as
 * "database unavailable" and counted as a 503: the client's ECONNRESET was taken for the
 * database's. It is a client abort now: logged as one, counted with status 499, never a 503.
 */

async function abortMidBody(port: number, path: string): Promise<void> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n` +
      'Cookie: XSRF-TOKEN=t\r\nX-XSRF-TOKEN: t\r\nContent-Length: 4000\r\n\r\n{"licenseKey":"ORGS-',
  );
  await new Promise((resolve) => setTimeout(resolve, 100));
  socket.resetAndDestroy();
}

describe.each(databaseTargets)('a client abort on $name', (target) => {
  let t: TestApp;
  let server: Server;
  const lines: Array<{ level: string; msg: string; entry: unknown }> = [];

  beforeAll(async () => {
    t = await createTestApp(target, { env: { METRICS_TOKEN: 'm'.repeat(40) } });
    // Every request's logger is a child of the app's: keep what it is told.
    const childOf = t.deps.logger.child.bind(t.deps.logger);
    vi.spyOn(t.deps.logger, 'child').mockImplementation((bindings, options) => {
      const child = childOf<string>(bindings, options);
      for (const level of ['debug', 'info', 'warn', 'error'] as const) {
        vi.spyOn(child, level).mockImplementation((entry: unknown, msg?: unknown) => {
          lines.push({ level, msg: String(msg ?? entry), entry });
        });
      }
      return child;
    });
    const listener = getRequestListener(t.app.fetch);
    server = createServer((incoming, outgoing) => void listener(incoming, outgoing));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
  });
  afterAll(async () => {
    server.close();
    await t.close();
  });

  it('is logged and counted as a client abort, not as the database', async () => {
    const { port } = server.address() as AddressInfo;
    for (const path of ['/account/v1/licenses/validate', '/api/submitContactForm']) {
      await abortMidBody(port, path);
    }
    await vi.waitFor(() => expect(lines.filter((l) => l.msg === 'client aborted')).toHaveLength(2));
    expect(lines.map((l) => l.msg)).not.toContain('database unavailable');
    expect(lines.filter((l) => l.level === 'error' || l.level === 'warn')).toEqual([]);
    const { body } = await t.deps.metrics.expose();
    expect(body).not.toMatch(/status="503"/);
    expect(body).toMatch(/route="\/account\/v1\/licenses\/validate",status="499"/);
  });
});
