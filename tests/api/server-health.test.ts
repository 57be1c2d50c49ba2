import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#server/platform/db/database.ts';
import * as schema from '#server/platform/db/schema.ts';
import { emailOutbox } from '#server/platform/db/schema.ts';
import { createOutboxRepository } from '#server/platform/email/outbox-repository.ts';
import { buildApp } from '#server/app.ts';
import { databaseTargets } from '../support/databases.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { postJson } from './account-support.ts';

const mail = { kind: 'test', to: 'a@example.com', subject: 'S', text: 'T', html: '<p>T</p>' };

describe.each(databaseTargets)('health and readiness on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(() => t.close());

  it('answers /healthz without the database and /readyz with it', async () => {
    const live = await t.app.request('/healthz');
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok', database: target.name });
    const ready = await t.app.request('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.headers.get('cache-control')).toBe('no-store');
    expect(await ready.json()).toEqual({
      status: 'ready',
      draining: false,
      database: { kind: target.name, reachable: true },
      outbox: { oldestDueSeconds: 0, stuck: false },
      mail: { transport: 'file', silentlyOnDisk: false },
      backup: { newestAgeSeconds: null, everySeconds: null, overdue: false },
    });
  });

  it('answers /readyz 503 while the process drains, /healthz stays 200 (decision 139)', async () => {
    let draining = false;
    const app = buildApp({ ...t.deps, draining: () => draining });
    expect((await app.request('/readyz')).status).toBe(200);
    draining = true;
    const ready = await app.request('/readyz');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({
      status: 'unavailable',
      draining: true,
      database: { reachable: true },
    });
    expect((await app.request('/healthz')).status).toBe(200);
  });

  it('is never ready while e-mails go to disk unasked on a public origin (decision 217)', async () => {
    // What a server refuses to start with; an app assembled around the check must not look ready.
    const env = { ...t.deps.env, PUBLIC_BASE_URL: 'https://orgsmith.example' };
    const unasked = buildApp({ ...t.deps, env });
    const ready = await unasked.request('/readyz');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({
      status: 'unavailable',
      mail: { transport: 'file', silentlyOnDisk: true },
    });
    const onPurpose = buildApp({
      ...t.deps,
      env: { ...env, mail: { transport: 'file', onPurpose: true } },
    });
    expect((await onPurpose.request('/readyz')).status).toBe(200);
  });

  it('reports the age of the oldest unsent e-mail and fails once mail is stuck', async () => {
    const outbox = createOutboxRepository(t.deps.database.db);
    const now = t.deps.clock();
    const row = await outbox.enqueue(mail, now);
    const { db } = t.deps.database;
    const { eq } = await import('drizzle-orm');
    await db
      .update(emailOutbox)
      .set({ createdAt: new Date(now.getTime() - 4 * 60_000) })
      .where(eq(emailOutbox.id, row.id));
    let body = await (await t.app.request('/readyz')).json();
    expect(body).toMatchObject({ status: 'ready', outbox: { oldestDueSeconds: 240 } });
    await db
      .update(emailOutbox)
      .set({ createdAt: new Date(now.getTime() - 11 * 60_000) })
      .where(eq(emailOutbox.id, row.id));
    const stuck = await t.app.request('/readyz');
    expect(stuck.status).toBe(503);
    body = await stuck.json();
    expect(body).toMatchObject({
      status: 'unavailable',
      outbox: { oldestDueSeconds: 660, stuck: true },
    });
    // Sent mail, or mail waiting for its retry time, is not a backlog.
    await db.update(emailOutbox).set({ status: 'sent' }).where(eq(emailOutbox.id, row.id));
    expect((await t.app.request('/readyz')).status).toBe(200);
  });
});

describe('when the database cannot be reached', () => {
  let t: TestApp;
  let pool: pg.Pool;
  beforeAll(async () => {
    t = await createTestApp(databaseTargets[0]!);
    // Nothing listens on port 1: every query is refused, as while PostgreSQL restarts.
    pool = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:1/none', max: 1 });
    pool.on('error', () => undefined);
  });
  afterAll(async () => {
    await pool.end();
    await t.close();
  });

  function appOnUnreachableDatabase() {
    const db = drizzle(pool, { schema }) as unknown as Database;
    return buildApp({ ...t.deps, database: { ...t.deps.database, kind: 'postgres', db } });
  }

  it('answers requests that need it with a 503 JSON error and Retry-After, at once', async () => {
    const app = appOnUnreachableDatabase();
    const started = Date.now();
    const res = await postJson({ ...t, app }, '/api/submitContactForm', {
      name: 'Jane Doe',
      emailAddress: 'jane@example.com',
      message: 'Hello',
    });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await res.json()).toEqual({
      Error: 'ServiceUnavailable',
      message: 'The service is briefly unavailable. Please try again in a few seconds.',
    });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('fails /readyz with 503 and keeps /healthz alive', async () => {
    const app = appOnUnreachableDatabase();
    const ready = await app.request('/readyz');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({
      status: 'unavailable',
      draining: false,
      database: { kind: 'postgres', reachable: false },
      outbox: { oldestDueSeconds: null, stuck: false },
      mail: { transport: 'file', silentlyOnDisk: false },
      backup: { newestAgeSeconds: null, everySeconds: null, overdue: false },
    });
    expect((await app.request('/healthz')).status).toBe(200);
  });
});

describe.runIf(databaseTargets.some((target) => target.name === 'postgres'))(
  'when PostgreSQL has no connection left (53300, issue 28)',
  () => {
    let t: TestApp;
    let pool: pg.Pool;
    const role = `orgsmith_full_${process.pid}`;
    const admin = () =>
      new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
    beforeAll(async () => {
      t = await createTestApp(databaseTargets[0]!);
      // A role allowed no connection at all: every connect fails with too_many_connections, as
      // when instances × (pool + 1) exceed max_connections.
      const client = admin();
      await client.connect();
      await client.query(`drop role if exists ${role}`);
      await client.query(`create role ${role} login connection limit 0`);
      await client.end();
      pool = new pg.Pool({
        connectionString: `postgres://${role}@127.0.0.1:5432/postgres`,
        max: 1,
      });
      pool.on('error', () => undefined);
    });
    afterAll(async () => {
      await pool.end();
      await t.close();
      const client = admin();
      await client.connect();
      await client.query(`drop role if exists ${role}`);
      await client.end();
    });

    it('answers 503 with Retry-After, not 500', async () => {
      const db = drizzle(pool, { schema }) as unknown as Database;
      const app = buildApp({ ...t.deps, database: { ...t.deps.database, kind: 'postgres', db } });
      const connect = await pool.connect().then(
        () => 'connected',
        (error: { code?: string }) => error.code,
      );
      expect(connect).toBe('53300');
      const res = await postJson({ ...t, app }, '/api/submitContactForm', {
        name: 'Jane Doe',
        emailAddress: 'jane@example.com',
        message: 'Hello',
      });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
    });
  },
);
