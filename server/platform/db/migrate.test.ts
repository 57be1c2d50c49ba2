import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { databaseTargets } from '#tests/support/databases.ts';
import { migrationsBefore, openOlderDatabase } from '#tests/support/older-schema.ts';
import type { Database } from './database.ts';
import { migrate, migrationFiles } from './migrate.ts';
import { schemaMigrations } from './schema.ts';

/** A directory of migrations written for one test. */
async function migrationsDir(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'orgsmith-migrations-'));
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  return dir;
}

async function rows(db: Database, query: string): Promise<unknown[]> {
  return z.object({ rows: z.array(z.unknown()) }).parse(await db.execute(sql.raw(query))).rows;
}

const FUNCTION_MIGRATION = `-- A function whose body ends lines with semicolons; a splitter would cut it up.
create function test_double(x integer) returns integer
language plpgsql as $$
declare
  doubled integer;
begin
  doubled := x * 2; -- a comment after a semicolon
  return doubled;
end;
$$;

create table test_numbers (n integer not null);
insert into test_numbers values (test_double(21));
`;

describe.each(databaseTargets)('migrations on $name', (target) => {
  it('applies every file once and is idempotent', async () => {
    const handle = await target.open();
    try {
      expect(await migrate(handle.db)).toEqual([]);
      const rows = await handle.db.select().from(schemaMigrations);
      expect(rows.map((row) => row.name)).toContain('0001_app_state.sql');
    } finally {
      await handle.close();
    }
  });

  it('runs a file whole: a plpgsql function with a $$ body, then statements that use it', async () => {
    const handle = await target.open();
    const directory = await migrationsDir({ '9001_function.sql': FUNCTION_MIGRATION });
    try {
      expect(await migrate(handle.db, { directory })).toEqual(['9001_function.sql']);
      expect(await rows(handle.db, 'select n from test_numbers')).toEqual([{ n: 42 }]);
      expect(await rows(handle.db, 'select test_double(5) as v')).toEqual([{ v: 10 }]);
      expect(await migrate(handle.db, { directory })).toEqual([]);
    } finally {
      await handle.close();
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('gives every file its own transaction: a failing second file leaves the first applied', async () => {
    const handle = await target.open();
    const directory = await migrationsDir({
      '9001_first.sql':
        'create table test_first (n integer);\ninsert into test_first values (1);\n',
      '9002_second.sql':
        'create table test_second (n integer);\ninsert into test_second values (1 / 0);\n',
    });
    try {
      await expect(migrate(handle.db, { directory })).rejects.toThrow(
        /Migration 9002_second.sql failed and was rolled back: .*division by zero/s,
      );
      expect(await rows(handle.db, 'select n from test_first')).toEqual([{ n: 1 }]);
      expect(
        await rows(handle.db, "select 1 from pg_tables where tablename = 'test_second'"),
      ).toEqual([]);
      const ledger = await handle.db.select().from(schemaMigrations);
      const names = ledger.map((row) => row.name);
      expect(names).toContain('9001_first.sql');
      expect(names).not.toContain('9002_second.sql');
      // Fixed, the run goes on from the failed file.
      await writeFile(
        path.join(directory, '9002_second.sql'),
        'create table test_second (n integer);\n',
      );
      expect(await migrate(handle.db, { directory })).toEqual(['9002_second.sql']);
    } finally {
      await handle.close();
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('stops at an older version when told which migrations to apply, and goes on later', async () => {
    const handle = await openOlderDatabase(target, '0302_local_customer_currency.sql');
    try {
      const older = await handle.db.select().from(schemaMigrations);
      expect(older.map((row) => row.name).sort()).toEqual(
        await migrationsBefore('0302_local_customer_currency.sql'),
      );
      const columns = await handle.db.execute(
        sql`select column_name from information_schema.columns where table_name = 'local_customers' and column_name = 'currency'`,
      );
      expect(z.object({ rows: z.array(z.unknown()) }).parse(columns).rows).toEqual([]);
      const rest = await migrate(handle.db);
      expect(rest[0]).toBe('0302_local_customer_currency.sql');
      const all = await handle.db.select().from(schemaMigrations);
      expect(all.map((row) => row.name).sort()).toEqual(await migrationFiles());
    } finally {
      await handle.close();
    }
  });
});
