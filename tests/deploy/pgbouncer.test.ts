import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { siteConfig } from '#shared/site-config.ts';
import { freePort } from '#tests/support/free-port.ts';
import { PGBOUNCER_BINARY, startPgBouncer, type PgBouncer } from '#tests/support/pgbouncer.ts';
import { startSmtpSink, type SmtpSink } from '#tests/support/smtp-sink.ts';
import {
  createPostgresDatabase,
  startInstance,
  type Instance,
} from '../faults/support/instance.ts';
import { report } from '../faults/support/load.ts';

const KEY = /ORGS(?:-[0-9A-Z]{4}){7}/;
const CSRF = 'pgbouncer-test-csrf-token';
/** Server connections PgBouncer may open: fewer than either instance's own pool. */
const POOL_SIZE = 4;
const INSTANCE_POOL_MAX = 8;
/** What the instances' direct connections (LISTEN) call themselves in pg_stat_activity. */
const DIRECT_NAME = 'orgsmith-direct';

interface Connections {
  /** Server connections from PgBouncer (the pool's). */
  pooled: number;
  /** The instances' own connections straight to PostgreSQL. */
  direct: number;
  /** Of those, the ones holding a LISTEN. */
  listening: number;
}

/**
 * Issue 43, item 1 (decision 237): two server processes on Debian's PgBouncer in transaction
 * mode with the deploy kit's config (deploy/pgbouncer/), their LISTEN connection and migrations
 * straight to PostgreSQL (DATABASE_DIRECT_URL). PostgreSQL sees at most PgBouncer's pool from the
 * instances' pools, however many clients those hold.
 */
describe.skipIf(!existsSync(PGBOUNCER_BINARY))('PgBouncer in transaction mode', () => {
  let sink: SmtpSink;
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let bouncer: PgBouncer;
  let monitor: pg.Client;
  let instances: Instance[] = [];
  let databaseName = '';

  async function connections(): Promise<Connections> {
    const { rows } = await monitor.query<{ pooled: string; direct: string; listening: string }>(
      `select count(*) filter (where application_name <> $2) as pooled,
              count(*) filter (where application_name = $2) as direct,
              count(*) filter (where application_name = $2 and query ilike 'listen %') as listening
         from pg_stat_activity
        where datname = $1 and pid <> pg_backend_pid()`,
      [databaseName, DIRECT_NAME],
    );
    const row = rows[0];
    return {
      pooled: Number(row?.pooled),
      direct: Number(row?.direct),
      listening: Number(row?.listening),
    };
  }

  beforeAll(async () => {
    sink = await startSmtpSink({ port: await freePort() });
    database = await createPostgresDatabase();
    databaseName = new URL(database.url).pathname.slice(1);
    bouncer = await startPgBouncer({ upstream: database.url, poolSize: POOL_SIZE });
    const direct = new URL(database.url);
    direct.searchParams.set('application_name', DIRECT_NAME);
    monitor = new pg.Client({ connectionString: database.url, application_name: 'monitor' });
    await monitor.connect();
    // Both start at once on an empty database: the migration lock (pg_advisory_xact_lock)
    // serialises them on their direct connections.
    const ports = [await freePort(), await freePort()];
    instances = await Promise.all(
      ports.map((port) =>
        startInstance({
          port,
          // Migrating an empty database on two busy cores takes a while.
          timeoutMs: 90_000,
          env: {
            DATABASE_URL: bouncer.url,
            DATABASE_DIRECT_URL: direct.toString(),
            DATABASE_POOL_MAX: String(INSTANCE_POOL_MAX),
            SMTP_URL: sink.url,
            PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
          },
        }),
      ),
    );
  }, 120_000);

  afterAll(async () => {
    for (const instance of instances) await instance.stop().catch(() => instance.kill());
    await monitor?.end();
    await bouncer?.stop();
    await database?.drop();
    await sink?.close();
  });

  it('issues a trial, delivers its key and validates it, all through PgBouncer', async () => {
    const [first, second] = instances as [Instance, Instance];
    const emailAddress = `pooled-${Date.now()}@example.com`;
    const query = new URLSearchParams({ emailAddress, productId: siteConfig.productId });
    const trial = await fetch(`${first.url}/account/v1/licenses/trial?${query}`, {
      method: 'POST',
      headers: { Cookie: `XSRF-TOKEN=${CSRF}`, 'X-XSRF-TOKEN': CSRF },
    });
    expect(trial.status).toBe(204);
    // The outbox worker delivers it (its wake-up and the release catalogue's LISTEN on the direct URL).
    const mail = await sink.waitForMail({ to: emailAddress, subject: /trial licence key/ }, 30_000);
    const licenseKey = KEY.exec(mail.text)?.[0];
    expect(licenseKey).toBeDefined();
    for (const instance of [first, second]) {
      const res = await fetch(`${instance.url}/account/v1/licenses/validate`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ licenseKey, productId: siteConfig.productId }),
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ valid: true });
    }
    // Each instance's LISTEN is its own direct connection; nothing else of theirs is direct.
    expect(await connections()).toMatchObject({ direct: 2, listening: 2 });
  });

  it('keeps PostgreSQL within PgBouncer pool under load from both instances', async () => {
    const emailAddresses = Array.from(
      { length: 6 },
      (_, n) => `load-${n}-${Date.now()}@example.com`,
    );
    const keys: string[] = [];
    for (const [n, emailAddress] of emailAddresses.entries()) {
      const instance = instances[n % 2] as Instance;
      const query = new URLSearchParams({ emailAddress, productId: siteConfig.productId });
      const res = await fetch(`${instance.url}/account/v1/licenses/trial?${query}`, {
        method: 'POST',
        headers: {
          Cookie: `XSRF-TOKEN=${CSRF}`,
          'X-XSRF-TOKEN': CSRF,
          'X-Forwarded-For': `198.51.100.${n + 1}`,
        },
      });
      expect(res.status).toBe(204);
    }
    for (const emailAddress of emailAddresses) {
      const mail = await sink.waitForMail(
        { to: emailAddress, subject: /trial licence key/ },
        30_000,
      );
      keys.push(KEY.exec(mail.text)?.[0] ?? '');
    }

    let most: Connections = { pooled: 0, direct: 0, listening: 0 };
    let mostServer = 0;
    let mostClients = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const seen = await connections();
        most = {
          pooled: Math.max(most.pooled, seen.pooled),
          direct: Math.max(most.direct, seen.direct),
          listening: Math.max(most.listening, seen.listening),
        };
        for (const pool of await bouncer.pools()) {
          if (pool.database !== databaseName) continue;
          mostServer = Math.max(
            mostServer,
            pool.sv_active + pool.sv_idle + pool.sv_used + pool.sv_login,
          );
          mostClients = Math.max(mostClients, pool.cl_active + pool.cl_waiting);
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();
    const started = Date.now();
    const statuses: number[] = [];
    let next = 0;
    const total = 240;
    await Promise.all(
      Array.from({ length: 2 * INSTANCE_POOL_MAX }, async (_, lane) => {
        while (next < total) {
          const n = next++;
          const instance = instances[lane % 2] as Instance;
          const res = await fetch(`${instance.url}/account/v1/licenses/validate`, {
            method: 'POST',
            headers: {
              'Content-Type': 'application/json',
              'X-Forwarded-For': `203.0.113.${n % 250}`,
            },
            body: JSON.stringify({
              licenseKey: keys[n % keys.length],
              productId: siteConfig.productId,
            }),
          });
          await res.arrayBuffer();
          statuses.push(res.status);
        }
      }),
    );
    sampling = false;
    await sampler;
    const seconds = (Date.now() - started) / 1000;
    report('pgbouncer', {
      requests: total,
      seconds,
      pool_size: POOL_SIZE,
      most_server_connections: mostServer,
      most_client_connections: mostClients,
      most_pooled_backends: most.pooled,
      direct_backends: most.direct,
    });
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
    // PostgreSQL saw no more than PgBouncer's pool from the instances' pools, plus their LISTEN
    // connections; PgBouncer held more clients than that.
    expect(mostServer).toBeLessThanOrEqual(POOL_SIZE);
    expect(most.pooled).toBeLessThanOrEqual(POOL_SIZE);
    expect(most.direct).toBe(2);
    expect(mostClients).toBeGreaterThan(POOL_SIZE);
  });

  it('starts every server connection with the time limits (connect_query)', async () => {
    const client = new pg.Client({ connectionString: bouncer.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ statement_timeout: string }>('show statement_timeout');
      expect(rows[0]?.statement_timeout).toBe('30s');
      // Startup parameters beyond the tracked few are refused in this mode: why the app sets the
      // limits per transaction behind a pooler.
      const withOptions = new pg.Client({
        connectionString: bouncer.url,
        options: '-c statement_timeout=1000',
      });
      withOptions.on('error', () => undefined);
      await expect(withOptions.connect()).rejects.toThrow(/unsupported startup parameter/);
    } finally {
      await client.end();
    }
  });
});
