import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '#server/db/client.ts';

const adminUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabaseTarget {
  name: 'pglite' | 'postgres';
  /** Opens a fresh, migrated, empty database; `close` drops it again. */
  open(): Promise<DatabaseHandle>;
}

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const pgliteTarget: TestDatabaseTarget = {
  name: 'pglite',
  open: () => openDatabase({}),
};

/** A fresh, empty PostgreSQL database on the test server; `drop()` removes it again. */
export async function createScratchDatabase(
  prefix = 'orgsmith_test',
): Promise<{ url: string; drop(): Promise<void> }> {
  const dbName = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${dbName} with (force)`);
      await dropper.end();
    },
  };
}

const postgresTarget: TestDatabaseTarget = {
  name: 'postgres',
  async open() {
    const scratch = await createScratchDatabase();
    const handle = await openDatabase({ databaseUrl: scratch.url });
    return {
      ...handle,
      async close() {
        await handle.close();
        await scratch.drop();
      },
    };
  },
};

/**
 * The databases repository tests run on: PGlite always; PostgreSQL when reachable, and always in
 * CI (where an unreachable server fails the run instead of silently skipping).
 */
export async function testDatabaseTargets(): Promise<TestDatabaseTarget[]> {
  if (await postgresReachable()) return [pgliteTarget, postgresTarget];
  if (process.env.CI)
    throw new Error(`PostgreSQL is required in CI but ${adminUrl} is unreachable`);
  return [pgliteTarget];
}

export const databaseTargets = await testDatabaseTargets();
