import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildService } from '#server/app.ts';
import { databaseTargets } from '../support/databases.ts';
import { stubServerBuild } from '../support/stub-server-build.ts';
import { createTestApp } from '../support/test-app.ts';

/**
 * Issue 25, smaller item 6: `X-Forwarded-Proto` (HSTS, the page store's https variant) and
 * `X-Request-Id` (the log) were believed from any client. Like `X-Forwarded-For`, they count only
 * from a `TRUST_PROXY` peer (decision 160), on stored pages (the fast path) as elsewhere.
 */

// No database work is involved: one database suffices.
const [target] = databaseTargets;

async function productionLikeServer(env: Record<string, string>) {
  if (!target) throw new Error('no database target');
  const t = await createTestApp(target, { env });
  const childLoggers = vi.spyOn(t.deps.logger, 'child');
  const { app, storedPages } = buildService(t.deps, { serverBuild: stubServerBuild() });
  const hono = getRequestListener(app.fetch);
  const server: Server = createServer((incoming, outgoing) => {
    if (!storedPages?.(incoming, outgoing)) void hono(incoming, outgoing);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Stored now: the next requests for it take the fast path.
  expect((await fetch(`${url}/imprint`)).status).toBe(200);
  return {
    url,
    /** The request ids the log lines were written with. */
    loggedIds: () =>
      childLoggers.mock.calls.map(([bindings]): unknown => Reflect.get(bindings, 'requestId')),
    async close() {
      server.closeAllConnections();
      server.close();
      await t.close();
    },
  };
}

const paths = ['/imprint', '/healthz', '/api/releases'];

describe('from a peer outside TRUST_PROXY', () => {
  let server: Awaited<ReturnType<typeof productionLikeServer>>;
  beforeAll(async () => {
    server = await productionLikeServer({ TRUST_PROXY: 'none' });
  });
  afterAll(() => server.close());

  for (const path of paths) {
    it(`ignores X-Forwarded-Proto and X-Request-Id on ${path}`, async () => {
      const id = `forged-${path.replaceAll('/', '-')}`;
      const response = await fetch(`${server.url}${path}`, {
        headers: { 'X-Forwarded-Proto': 'https', 'X-Request-Id': id },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('strict-transport-security')).toBeNull();
      expect(server.loggedIds()).not.toContain(id);
    });
  }
});

describe('from a trusted proxy (loopback, the default)', () => {
  let server: Awaited<ReturnType<typeof productionLikeServer>>;
  beforeAll(async () => {
    server = await productionLikeServer({});
  });
  afterAll(() => server.close());

  for (const path of paths) {
    it(`believes X-Forwarded-Proto and X-Request-Id on ${path}`, async () => {
      const id = `proxy-${path.replaceAll('/', '-')}`;
      const response = await fetch(`${server.url}${path}`, {
        headers: { 'X-Forwarded-Proto': 'https', 'X-Request-Id': id },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('strict-transport-security')).toContain('max-age=');
      expect(server.loggedIds()).toContain(id);
    });
  }
});
