import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPostgresDatabase,
  startInstance,
  type Instance,
} from '../faults/support/instance.ts';
import { freePort } from '#tests/support/free-port.ts';
import { startNginx, type Nginx } from './support/nginx.ts';

/** Requests started per second, spread over pages (past nginx's cache) and API GETs. */
const RATE = 50;
const TARGETS = [
  '/',
  '/pricing',
  '/download',
  '/imprint',
  '/support',
  '/api/releases',
  '/api/downloads/suggested',
  '/healthz',
];

interface Tally {
  requests: number;
  failures: string[];
  statuses: Map<number, number>;
}

/**
 * Steady load through nginx: `RATE` requests a second until `stop()`, each with its own campaign
 * tag on pages so nginx's page cache does not answer for the app (the app stores one page for all).
 * A failure is a network error or any status other than 200.
 */
function steadyLoad(baseUrl: string) {
  const t0 = Date.now();
  const tally: Tally = { requests: 0, failures: [], statuses: new Map() };
  const pending = new Set<Promise<void>>();
  let n = 0;
  const timer = setInterval(() => {
    const target = TARGETS[n % TARGETS.length] ?? '/';
    const url =
      target.startsWith('/api') || target === '/healthz' ? target : `${target}?utm_id=${n}`;
    n++;
    tally.requests++;
    const request = fetch(`${baseUrl}${url}`, { signal: AbortSignal.timeout(10_000) })
      .then(async (response) => {
        await response.arrayBuffer();
        tally.statuses.set(response.status, (tally.statuses.get(response.status) ?? 0) + 1);
        if (response.status !== 200)
          tally.failures.push(`${Date.now() - t0} ms ${url}: ${response.status}`);
      })
      .catch((error: unknown) => {
        tally.failures.push(
          `${Date.now() - t0} ms ${url}: ${error instanceof Error ? error.message : String(error)}`,
        );
      })
      .finally(() => pending.delete(request));
    pending.add(request);
  }, 1000 / RATE);
  return {
    tally,
    async stop() {
      clearInterval(timer);
      await Promise.all(pending);
      return tally;
    },
  };
}

/** `fail_timeout` of the template's servers here and in deploy/compose.yaml. */
const FAIL_TIMEOUT_MS = 5_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A rolling restart behind nginx fails no request (issue 18, item 10; decision 139): under steady
 * load, each of two instances on one PostgreSQL is stopped with SIGTERM and started again, one
 * after the other. The app stops accepting, answers what it has with `Connection: close`, says
 * 503 on /readyz; nginx sends what the stopping instance refuses to the other one.
 */
describe('deploy/: a rolling restart behind nginx', () => {
  let work: string;
  let postgres: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let proxyPort: number;
  let ports: number[];
  const instances: Instance[] = [];
  let nginx: Nginx;

  const start = (port: number) =>
    startInstance({
      port,
      timeoutMs: 60_000,
      env: {
        DATABASE_URL: postgres.url,
        SMTP_URL: '',
        DATA_DIR: path.join(work, `data-${port}`),
        PUBLIC_BASE_URL: `http://127.0.0.1:${proxyPort}`,
        LOG_LEVEL: 'warn',
      },
    });

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'orgsmith-rolling-'));
    postgres = await createPostgresDatabase();
    proxyPort = await freePort();
    ports = [await freePort(), await freePort()];
    // One after the other: both would run the migrations at once.
    for (const port of ports) instances.push(await start(port));
    nginx = await startNginx({
      dir: path.join(work, 'nginx'),
      port: proxyPort,
      appServers: ports.map((port) => `127.0.0.1:${port}`),
      assetsRoot: path.resolve('build', 'client'),
    });
  }, 180_000);

  afterAll(async () => {
    await nginx?.stop();
    await Promise.all(instances.map((instance) => instance.stop()));
    await postgres?.drop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('restarts both instances under 50 requests a second and fails none', async () => {
    const started = Date.now();
    const load = steadyLoad(nginx.url);
    await sleep(2_000);
    for (const [index, port] of ports.entries()) {
      const old = instances[index];
      if (!old) throw new Error('no instance');
      expect(await old.stop()).toBe(0);
      instances[index] = await start(port);
      // nginx tries an instance it saw fail again only after fail_timeout (5 s): the next one
      // stops once the proxy uses this one again, or both would be marked down at once.
      await sleep(FAIL_TIMEOUT_MS + 1_000);
    }
    const tally = await load.stop();
    const seconds = (Date.now() - started) / 1000;
    console.info(
      `rolling restart: ${tally.requests} requests in ${seconds.toFixed(1)} s, ` +
        `${tally.failures.length} failed; statuses ${JSON.stringify(Object.fromEntries(tally.statuses))}`,
    );
    expect(tally.failures).toEqual([]);
    expect(tally.requests).toBeGreaterThan(RATE * 10);
  }, 120_000);
});
