import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app.ts';
import type { DatabaseHandle } from '#server/platform/db/client.ts';
import type { Database } from '#server/platform/db/database.ts';
import * as schema from '#server/platform/db/schema.ts';
import { createJobRunRepository } from '#server/platform/jobs/job-run-repository.ts';
import { createOutboxDelivery } from '#server/platform/email/deliver-outbox.ts';
import { createFileTransport } from '#server/platform/email/file-transport.ts';
import { generateLicenceKey } from '#server/licensing/licences/licence-key.ts';
import { createLogger } from '#server/platform/logger.ts';
import { startMetricsListener } from '#server/metrics/metrics-listener.ts';
import { createServiceMetrics, metricsOff } from '#server/metrics/service-metrics.ts';
import { siteConfig } from '#shared/site-config.ts';
import { freePort } from '#tests/support/free-port.ts';
import { databaseTargets } from '../support/databases.ts';
import { stubServerBuild } from '../support/stub-server-build.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { postJson, requestTrial } from './account-support.ts';

const token = `metrics-${randomBytes(24).toString('hex')}`;
const bearer = { Authorization: `Bearer ${token}` };
const VALIDATE = '/account/v1/licenses/validate';
const DURATION = 'orgsmith_http_request_duration_seconds';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (no escaped quotes occur in our label values). */
function parseExposition(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map(([, name = '', value = '']) => [
          name,
          value,
        ]),
      );
      return { name: match[1] ?? '', labels, value: Number(match[3]) };
    });
}

class Exposition {
  readonly text: string;
  readonly samples: Sample[];
  constructor(text: string) {
    this.text = text;
    this.samples = parseExposition(text);
  }

  /** The value of the one sample with this name and (at least) these labels. */
  value(name: string, labels: Record<string, string> = {}): number | undefined {
    const found = this.samples.filter(
      (sample) =>
        sample.name === name &&
        Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
    );
    if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} is ambiguous`);
    return found[0]?.value;
  }

  /** Every label set of a family, as text, to compare scrapes. */
  series(name: string): Set<string> {
    return new Set(
      this.samples.filter((s) => s.name === name).map((s) => JSON.stringify(s.labels)),
    );
  }
}

async function scrape(app: { request: TestApp['app']['request'] }): Promise<Exposition> {
  const res = await app.request('/metrics', { headers: bearer });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  expect(res.headers.get('cache-control')).toBe('no-store');
  return new Exposition(await res.text());
}

const logger = createLogger('silent');

describe.each(databaseTargets)('GET /metrics on $name', (target) => {
  let t: TestApp;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-metrics-'));
    t = await createTestApp(target, {
      env: { METRICS_TOKEN: token, LICENSE_VALIDATION_RATE_LIMIT: '2', DATA_DIR: dataDir },
      options: { serverBuild: stubServerBuild() },
    });
  });
  afterAll(async () => {
    await t.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('is an unknown path without the token: no token, a wrong one, another scheme', async () => {
    const unknown = await t.app.request('/no-such-page');
    expect(unknown.status).toBe(404);
    const wrongToken = `${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}`;
    const attempts: Array<Record<string, string>> = [
      {},
      { Authorization: `Bearer ${wrongToken}` },
      { Authorization: `Basic ${Buffer.from(`x:${token}`).toString('base64')}` },
      { Authorization: token },
      { Cookie: `token=${token}` },
    ];
    for (const headers of attempts) {
      const res = await t.app.request('/metrics', { headers });
      expect(res.status, JSON.stringify(headers)).toBe(404);
      expect(res.headers.get('content-type')).toBe(unknown.headers.get('content-type'));
      expect(await res.text()).not.toContain('orgsmith_');
    }
    expect((await t.app.request(`/metrics?token=${token}`)).status).toBe(404);
    expect((await t.app.request('/metrics', { method: 'POST', headers: bearer })).status).not.toBe(
      200,
    );
  });

  it('reports requests by route, validations, refusals, the page store, the outbox and the process', async () => {
    const before = await scrape(t.app);
    const licenseKey = generateLicenceKey();
    const validations = [];
    for (let n = 0; n < 3; n++) {
      validations.push(
        (
          await postJson(
            t,
            VALIDATE,
            { licenseKey, productId: siteConfig.productId },
            { ip: '198.51.100.7' },
          )
        ).status,
      );
    }
    // LICENSE_VALIDATION_RATE_LIMIT=2: the third is refused by the per-credential rule.
    expect(validations).toEqual([200, 200, 429]);
    const trial = await requestTrial(t, {
      emailAddress: `metrics-${target.name}@example.com`,
      productId: siteConfig.productId,
    });
    expect(trial.status).toBe(204);
    const pages = [await t.app.request('/imprint'), await t.app.request('/imprint')];
    expect(pages.map((page) => page.status)).toEqual([200, 200]);

    const after = await scrape(t.app);
    const delta = (name: string, labels: Record<string, string>) =>
      (after.value(name, labels) ?? 0) - (before.value(name, labels) ?? 0);
    const validate = { method: 'POST', route: VALIDATE };
    expect(delta(`${DURATION}_count`, { ...validate, status: '200' })).toBe(2);
    expect(delta(`${DURATION}_count`, { ...validate, status: '429' })).toBe(1);
    expect(
      delta(`${DURATION}_count`, {
        method: 'POST',
        route: '/account/v1/licenses/trial',
        status: '204',
      }),
    ).toBe(1);
    expect(delta(`${DURATION}_count`, { method: 'GET', route: 'page', status: '200' })).toBe(2);
    // The scrape before this one is counted too, under its own route.
    expect(
      after.value(`${DURATION}_count`, { method: 'GET', route: '/metrics', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
    const validateSeconds = after.value(`${DURATION}_sum`, { ...validate, status: '200' }) ?? 0;
    expect(validateSeconds).toBeGreaterThan(0);
    expect(validateSeconds).toBeLessThan(10);
    expect(
      after.value(`${DURATION}_bucket`, { ...validate, status: '200', le: '+Inf' }),
    ).toBeGreaterThanOrEqual(2);

    expect(delta('orgsmith_license_validations_total', { code: 'NOT_FOUND' })).toBe(2);
    expect(delta('orgsmith_rate_limit_refusals_total', { rule: 'validate:credential' })).toBe(1);

    expect(delta('orgsmith_page_store_requests_total', { result: 'miss' })).toBe(1);
    expect(delta('orgsmith_page_store_requests_total', { result: 'hit' })).toBe(1);
    expect(after.value('orgsmith_page_store_pages')).toBeGreaterThanOrEqual(1);
    // The store keeps brotli and gzip bytes only (decision 135): a stub page is a few hundred.
    expect(after.value('orgsmith_page_store_bytes')).toBeGreaterThan(100);

    // The trial's licence e-mail waits (no worker runs in these tests).
    expect(after.value('orgsmith_outbox_pending_messages')).toBe(1);
    expect(after.value('orgsmith_outbox_oldest_due_seconds')).toBeGreaterThanOrEqual(0);
    // No provider call waits or was given up (decision 246).
    expect(after.value('orgsmith_provider_calls', { status: 'pending' })).toBe(0);
    expect(after.value('orgsmith_provider_calls', { status: 'failed' })).toBe(0);
    const delivery = createOutboxDelivery({
      db: t.deps.database.db,
      transport: createFileTransport(dataDir, logger),
      from: t.deps.env.MAIL_FROM,
      clock: t.deps.clock,
      logger,
      onOutcome: t.deps.metrics.outboxDelivered,
    });
    expect(await delivery.deliverDue()).toMatchObject({ sent: 1 });
    const delivered = await scrape(t.app);
    expect(delivered.value('orgsmith_outbox_pending_messages')).toBe(0);
    expect(delivered.value('orgsmith_outbox_deliveries_total', { outcome: 'sent' })).toBe(1);

    expect(after.value('orgsmith_database_reachable')).toBe(1);
    expect(after.value('orgsmith_database_info', { kind: target.name })).toBe(1);
    if (target.name === 'postgres') {
      expect(after.value('orgsmith_database_pool_connections')).toBeGreaterThanOrEqual(1);
      expect(after.value('orgsmith_database_pool_max_connections')).toBe(10);
      expect(after.value('orgsmith_database_pool_waiting_requests')).toBe(0);
    } else {
      expect(after.text).not.toContain('orgsmith_database_pool_');
    }
    expect(after.value('process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
    expect(after.value('nodejs_heap_size_used_bytes')).toBeGreaterThan(1_000_000);
    expect(after.value('nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
  });

  it('reports each job’s last run: cluster jobs from the database, instance jobs of this process', async () => {
    const claims = createJobRunRepository(t.deps.database.db);
    const startedAt = new Date(Date.now() - 5000);
    await claims.register('licence-lifecycle', startedAt);
    expect(
      await claims.claim(
        'licence-lifecycle',
        'other-instance',
        startedAt,
        new Date(Date.now() + 60_000),
      ),
    ).toBe(true);
    await claims.finish('licence-lifecycle', 'other-instance', {
      finishedAt: new Date(startedAt.getTime() + 1500),
      durationMs: 1500,
      rows: 42,
      error: null,
      nextRunAt: new Date(startedAt.getTime() + 3_600_000),
    });
    t.deps.metrics.watchJobs(() => [
      {
        name: 'email-outbox',
        scope: 'instance',
        startedAt,
        durationMs: 250,
        rows: 3,
        failed: true,
      },
    ]);
    const exposition = await scrape(t.app);
    const lifecycle = { job: 'licence-lifecycle', scope: 'cluster' };
    expect(exposition.value('orgsmith_job_last_rows', lifecycle)).toBe(42);
    expect(exposition.value('orgsmith_job_last_duration_seconds', lifecycle)).toBe(1.5);
    expect(exposition.value('orgsmith_job_last_failed', lifecycle)).toBe(0);
    expect(exposition.value('orgsmith_job_last_run_timestamp_seconds', lifecycle)).toBe(
      (startedAt.getTime() + 1500) / 1000,
    );
    const outbox = { job: 'email-outbox', scope: 'instance' };
    expect(exposition.value('orgsmith_job_last_rows', outbox)).toBe(3);
    expect(exposition.value('orgsmith_job_last_failed', outbox)).toBe(1);
    expect(exposition.value('orgsmith_job_last_duration_seconds', outbox)).toBe(0.25);
  });

  it('gives junk URLs no label values of their own', async () => {
    const junk = (marker: string) => [
      { path: `/wp-admin/${marker}.php`, method: 'GET' },
      { path: `/imprint/${marker}?${marker}=1`, method: 'HEAD' },
      { path: `/api/${marker}`, method: 'GET' },
      { path: `/account/v1/${marker}`, method: 'POST' },
      { path: `/assets/${marker}.js`, method: 'GET' },
      { path: `/${marker}`, method: 'PROPFIND' },
      { path: `/%2e%2e/${marker}`, method: 'DELETE' },
      { path: `${VALIDATE}/${marker}`, method: 'POST' },
    ];
    const send = async (marker: string) => {
      for (const { path: junkPath, method } of junk(marker)) {
        await t.app.request(junkPath, { method });
      }
    };
    await send('first');
    const before = await scrape(t.app);
    const markers = Array.from({ length: 12 }, () => `junk${randomBytes(6).toString('hex')}`);
    for (const marker of markers) await send(marker);
    const after = await scrape(t.app);
    for (const family of [`${DURATION}_count`, `${DURATION}_bucket`]) {
      expect(
        [...after.series(family)].filter((labels) => !before.series(family).has(labels)),
      ).toEqual([]);
    }
    for (const marker of markers) expect(after.text).not.toContain(marker);
    const routes = new Set(after.samples.map((sample) => sample.labels.route).filter(Boolean));
    for (const route of routes) expect(route).toMatch(/^(page|asset|other|\/[\w/:.*-]*)$/);
    expect(after.series(`${DURATION}_count`).size).toBeLessThan(40);
  });
});

describe('metrics without their own switch', () => {
  it('are off by default: nothing kept, /metrics is an unknown path', async () => {
    const t = await createTestApp(databaseTargets[0]!);
    try {
      expect(t.deps.metrics).toBe(metricsOff);
      expect((await t.app.request('/metrics', { headers: bearer })).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});

describe('METRICS_PORT: a listener of its own', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(databaseTargets[0]!, {
      env: { METRICS_PORT: String(await freePort()) },
    });
  });
  afterAll(() => t.close());

  it('serves /metrics on loopback without a token and nothing else; the public port has none', async () => {
    const listener = await startMetricsListener({
      metrics: t.deps.metrics,
      port: t.deps.env.METRICS_PORT ?? 0,
      hostname: t.deps.env.METRICS_HOST ?? '',
      token: undefined,
    });
    try {
      expect(listener.url).toBe(`http://127.0.0.1:${t.deps.env.METRICS_PORT}`);
      expect((await t.app.request('/metrics', { headers: bearer })).status).toBe(404);
      await t.app.request('/healthz');
      const res = await fetch(`${listener.url}/metrics`);
      expect(res.status).toBe(200);
      const exposition = new Exposition(await res.text());
      expect(
        exposition.value(`${DURATION}_count`, { method: 'GET', route: '/healthz', status: '200' }),
      ).toBe(1);
      for (const [other, method] of [
        ['/', 'GET'],
        ['/metrics/', 'GET'],
        ['/healthz', 'GET'],
        ['/metrics', 'POST'],
      ] as const) {
        expect((await fetch(`${listener.url}${other}`, { method })).status, other).toBe(404);
      }
    } finally {
      await listener.close();
    }
  });

  it('asks for the token there too when one is set', async () => {
    const listener = await startMetricsListener({
      metrics: t.deps.metrics,
      port: await freePort(),
      hostname: '127.0.0.1',
      token,
    });
    try {
      expect((await fetch(`${listener.url}/metrics`)).status).toBe(404);
      const wrong = { Authorization: `Bearer ${token}x` };
      expect((await fetch(`${listener.url}/metrics`, { headers: wrong })).status).toBe(404);
      expect((await fetch(`${listener.url}/metrics`, { headers: bearer })).status).toBe(200);
    } finally {
      await listener.close();
    }
  });

  it('refuses to start on a port in use', async () => {
    const listener = await startMetricsListener({
      metrics: t.deps.metrics,
      port: await freePort(),
      hostname: '127.0.0.1',
      token: undefined,
    });
    try {
      const port = Number(new URL(listener.url).port);
      await expect(
        startMetricsListener({ metrics: t.deps.metrics, port, hostname: '127.0.0.1', token }),
      ).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await listener.close();
    }
  });
});

describe('a scrape while the database does not answer', () => {
  let t: TestApp;
  let silent: Server;
  const sockets = new Set<Socket>();
  let pool: pg.Pool;
  beforeAll(async () => {
    t = await createTestApp(databaseTargets[0]!, { env: { METRICS_TOKEN: token } });
    // Accepts connections and never says a word: a database host that hangs.
    silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    pool = new pg.Pool({ connectionString: `postgres://postgres@127.0.0.1:${port}/none`, max: 2 });
    pool.on('error', () => undefined);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    silent.close();
    await pool.end().catch(() => undefined);
    await t.close();
  });

  it('answers within its timeout, says the database is unreachable and leaves the outbox out', async () => {
    const db: Database = drizzle(pool, { schema });
    const database: DatabaseHandle = { ...t.deps.database, kind: 'postgres', db };
    const metrics = createServiceMetrics({ database, clock: t.deps.clock });
    const app = buildApp({ ...t.deps, database, metrics });
    const started = Date.now();
    const [first, second] = await Promise.all([scrape(app), scrape(app)]);
    expect(Date.now() - started).toBeLessThan(2_500);
    for (const exposition of [first, second]) {
      expect(exposition.value('orgsmith_database_reachable')).toBe(0);
      expect(exposition.value('orgsmith_outbox_pending_messages')).toBeUndefined();
      expect(exposition.value('orgsmith_outbox_oldest_due_seconds')).toBeUndefined();
      expect(exposition.value('process_resident_memory_bytes')).toBeGreaterThan(0);
    }
  });

  it('runs no statement on an instance that does not report the cluster (decision 240)', async () => {
    // The database here never answers: a scrape that asked it would wait its second and say 0.
    const db: Database = drizzle(pool, { schema });
    const database: DatabaseHandle = { ...t.deps.database, kind: 'postgres', db };
    const cluster = { reportsCluster: () => false, databaseAnswering: () => true };
    const metrics = createServiceMetrics({ database, clock: t.deps.clock, cluster });
    const app = buildApp({ ...t.deps, database, metrics });
    const connections = sockets.size;
    const started = Date.now();
    const exposition = await scrape(app);
    expect(Date.now() - started).toBeLessThan(500);
    expect(exposition.value('orgsmith_database_reachable')).toBe(1);
    expect(exposition.value('orgsmith_outbox_pending_messages')).toBeUndefined();
    expect(exposition.value('orgsmith_outbox_oldest_due_seconds')).toBeUndefined();
    expect(exposition.value('orgsmith_provider_calls', { status: 'pending' })).toBeUndefined();
    expect(sockets.size).toBe(connections);
  });
});
