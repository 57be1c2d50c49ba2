import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import pg from 'pg';
import { createScratchDatabase, databaseTargets } from '#tests/support/databases.ts';
import { inSnapshot } from '#server/backup/backup-repository.ts';
import { openDatabase, PGLITE_SHARED_BUFFERS } from './client.ts';
import type { Database, Executor } from './database.ts';
import { migrationFiles } from './migrate.ts';

const shown = z.object({ rows: z.array(z.object({ shared_buffers: z.string() })).length(1) });

describe('the embedded database', () => {
  it.each([
    ['in memory', false],
    ['in a data directory', true],
  ])('keeps its shared buffers small (%s)', async (_, onDisk) => {
    const dir = onDisk ? await mkdtemp(path.join(tmpdir(), 'orgsmith-client-')) : undefined;
    const handle = await openDatabase({ dataDir: dir });
    try {
      const result = await handle.db.execute(sql`show shared_buffers`);
      expect(shown.parse(result).rows[0]?.shared_buffers).toBe(PGLITE_SHARED_BUFFERS);
    } finally {
      await handle.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    }
  });
});

const setting = z.object({ rows: z.array(z.record(z.string(), z.string())).length(1) });

/** One setting as the connection that runs `show` has it. */
async function show(db: Executor | Database, name: string): Promise<string | undefined> {
  return Object.values(setting.parse(await db.execute(sql.raw(`show ${name}`))).rows[0] ?? {})[0];
}

const postgres = databaseTargets.some((target) => target.name === 'postgres');

describe.runIf(postgres)('PostgreSQL time limits (decision 237)', () => {
  const timeouts = { statementTimeoutMs: 400, idleInTransactionTimeoutMs: 300 };

  it('starts every direct connection with them, and cancels a statement that runs too long', async () => {
    const scratch = await createScratchDatabase('orgsmith_limits');
    const handle = await openDatabase({ databaseUrl: scratch.url, timeouts });
    try {
      expect(handle.pooled).toBe(false);
      expect(await show(handle.db, 'statement_timeout')).toBe('400ms');
      expect(await show(handle.db, 'idle_in_transaction_session_timeout')).toBe('300ms');
      await expect(handle.db.execute(sql`select pg_sleep(1)`)).rejects.toThrow();
      // The limit is lifted for a backup's snapshot only, not for what follows.
      expect(await inSnapshot(handle.db, (tx) => show(tx, 'statement_timeout'))).toBe('0');
      expect(await show(handle.db, 'statement_timeout')).toBe('400ms');
    } finally {
      await handle.close();
      await scratch.drop();
    }
  });

  it('through a pooler, sets them in every transaction and ends a transaction left idle', async () => {
    const scratch = await createScratchDatabase('orgsmith_limits');
    // A different URL of the same database stands for PgBouncer: the server cannot tell.
    const pooledUrl = new URL(scratch.url);
    pooledUrl.searchParams.set('application_name', 'orgsmith-pool');
    const handle = await openDatabase({
      databaseUrl: pooledUrl.toString(),
      directUrl: scratch.url,
      timeouts,
    });
    try {
      expect(handle.pooled).toBe(true);
      // No startup parameters on the pool (PgBouncer refuses them): the server's own default here.
      expect(await show(handle.db, 'statement_timeout')).toBe('0');
      const inside = await handle.db.transaction(async (tx) => ({
        statement: await show(tx, 'statement_timeout'),
        idle: await show(tx, 'idle_in_transaction_session_timeout'),
      }));
      expect(inside).toEqual({ statement: '400ms', idle: '300ms' });
      await expect(
        handle.db.transaction((tx) => tx.execute(sql`select pg_sleep(1)`)),
      ).rejects.toThrow();
      await expect(
        handle.db.transaction(async (tx) => {
          await tx.execute(sql`select 1`);
          await new Promise((resolve) => setTimeout(resolve, 800));
          await tx.execute(sql`select 1`);
        }),
      ).rejects.toThrow();
      // The pool carries on with a fresh connection, limits and all.
      expect(await handle.db.transaction((tx) => show(tx, 'statement_timeout'))).toBe('400ms');
    } finally {
      await handle.close();
      await scratch.drop();
    }
  });

  it('migrates on the direct URL without a statement limit', async () => {
    const scratch = await createScratchDatabase('orgsmith_limits');
    const handle = await openDatabase({
      databaseUrl: scratch.url,
      timeouts: { statementTimeoutMs: 1, idleInTransactionTimeoutMs: 0 },
    });
    try {
      // Every migration ran although one millisecond cancels the pool's slower statements.
      await expect(handle.db.execute(sql`select pg_sleep(0.05)`)).rejects.toThrow();
      const count = await queryCount(scratch.url);
      expect(count).toBe((await migrationFiles()).length);
    } finally {
      await handle.close();
      await scratch.drop();
    }
  });
});

async function queryCount(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      'select count(*) as n from schema_migrations',
    );
    return Number(rows[0]?.n);
  } finally {
    await client.end();
  }
}
