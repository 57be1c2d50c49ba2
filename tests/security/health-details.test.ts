import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../support/databases.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

/**
 * Issue 25, smaller item 7: `/readyz` through the nginx template told anyone the database kind
 * and the backup schedule and age (and `/healthz` the database kind). The details go only to a
 * client on the server's own machine or one with the metrics token; the public gets the status
 * (decision 160).
 */
const token = 'health-details-metrics-token-0123456789';
/** What nginx adds for a visitor from elsewhere (`$proxy_add_x_forwarded_for`). */
const viaProxy = { 'X-Forwarded-For': '203.0.113.7' };

describe.each(databaseTargets)('health details on $name', (target) => {
  let t: TestApp;
  let server: Server;
  let url: string;
  beforeAll(async () => {
    // Scheduled backups every 24 h (the default): no worker runs here, nothing is written.
    t = await createTestApp(target, { env: { METRICS_TOKEN: token, BACKUP_DIR: tmpdir() } });
    const listener = getRequestListener(t.app.fetch);
    server = createServer((incoming, outgoing) => void listener(incoming, outgoing));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    server.close();
    await t.close();
  });

  async function get(path: string, headers: Record<string, string> = {}) {
    const response = await fetch(`${url}${path}`, { headers });
    return { status: response.status, body: (await response.json()) as unknown };
  }

  it('tells a visitor through the proxy the status only', async () => {
    expect(await get('/readyz', viaProxy)).toEqual({ status: 200, body: { status: 'ready' } });
    expect(await get('/healthz', viaProxy)).toEqual({ status: 200, body: { status: 'ok' } });
    const wrong = { ...viaProxy, Authorization: 'Bearer not-the-metrics-token-0123456789' };
    expect(await get('/readyz', wrong)).toEqual({ status: 200, body: { status: 'ready' } });
  });

  it('tells this machine and the metrics token everything', async () => {
    for (const headers of [{}, { ...viaProxy, Authorization: `Bearer ${token}` }]) {
      const ready = await get('/readyz', headers);
      expect(ready.status).toBe(200);
      expect(ready.body).toMatchObject({
        status: 'ready',
        database: { kind: target.name, reachable: true },
        backup: { everySeconds: 86_400 },
      });
      expect((await get('/healthz', headers)).body).toEqual({
        status: 'ok',
        database: target.name,
      });
    }
  });
});
