import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openDatabase, type DatabaseHandle } from '#server/platform/db/client.ts';
import type { Database } from '#server/platform/db/database.ts';
import { migrationFiles } from '#server/platform/db/migrate.ts';
import { createScratchDatabase, databaseTargets, migrationsHash } from '../support/databases.ts';

/**
 * Decision 162: test databases are copies of a migrated template. A copy must be exactly what
 * migrating a fresh database gives: the same migrations recorded, the same tables, columns,
 * constraints, indexes, functions and triggers, the same seed rows.
 */
async function rows(db: Database, query: ReturnType<typeof sql>): Promise<unknown[]> {
  return z.object({ rows: z.array(z.unknown()) }).parse(await db.execute(query)).rows;
}

async function schemaOf(db: Database) {
  return {
    migrations: (await rows(db, sql`select name from schema_migrations order by name`)).map((row) =>
      Reflect.get(Object(row), 'name'),
    ),
    columns: await rows(
      db,
      sql`select table_name, column_name, data_type, column_default, is_nullable
          from information_schema.columns where table_schema = 'public'
          order by table_name, column_name`,
    ),
    constraints: await rows(
      db,
      sql`select conrelid::regclass::text as on_table, conname, pg_get_constraintdef(oid) as def
          from pg_constraint where connamespace = 'public'::regnamespace
          order by on_table, conname`,
    ),
    indexes: await rows(
      db,
      sql`select indexname, indexdef from pg_indexes where schemaname = 'public' order by indexname`,
    ),
    functions: await rows(
      db,
      sql`select proname, pg_get_functiondef(oid) as def from pg_proc
          where pronamespace = 'public'::regnamespace order by proname`,
    ),
    triggers: await rows(
      db,
      sql`select tgname, pg_get_triggerdef(oid) as def from pg_trigger
          where not tgisinternal order by tgname`,
    ),
    sequences: await rows(
      db,
      sql`select sequencename, last_value from pg_sequences where schemaname = 'public'
          order by sequencename`,
    ),
    // Seed rows; `published_at`/`added_at` are the time of migrating and differ by design.
    releases: await rows(
      db,
      sql`select version, release_date, prerelease, notes from releases order by version`,
    ),
    artifacts: await rows(
      db,
      sql`select file_name, sha256, size_bytes from release_artifacts order by file_name`,
    ),
  };
}

describe.each(databaseTargets)('a test database on $name', (target) => {
  const opened: DatabaseHandle[] = [];
  afterAll(async () => {
    for (const handle of opened) await handle.close();
  });

  it('is what migrating a fresh database gives', async () => {
    const copy = await target.open();
    opened.push(copy);
    let fresh: DatabaseHandle;
    if (target.name === 'pglite') {
      fresh = await openDatabase({});
    } else {
      const scratch = await createScratchDatabase();
      const handle = await openDatabase({ databaseUrl: scratch.url });
      fresh = {
        ...handle,
        async close() {
          await handle.close();
          await scratch.drop();
        },
      };
    }
    opened.push(fresh);
    const ofCopy = await schemaOf(copy.db);
    expect(ofCopy.migrations).toEqual(await migrationFiles());
    expect(ofCopy.columns.length).toBeGreaterThan(50);
    expect(ofCopy).toEqual(await schemaOf(fresh.db));
  });

  it('is a copy of its own: what one test writes, the next does not see', async () => {
    const first = await target.open();
    opened.push(first);
    await first.db.execute(sql`delete from release_artifacts`);
    const second = await target.open();
    opened.push(second);
    const count = await rows(second.db, sql`select count(*)::int as n from release_artifacts`);
    expect(Reflect.get(Object(count[0]), 'n')).toBeGreaterThan(0);
  });
});

describe('the template key', () => {
  let dir: string | undefined;
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('changes when a migration file changes, is added or goes', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'orgsmith-migrations-'));
    const source = path.resolve('server/platform/db/migrations');
    await cp(source, dir, { recursive: true });
    const ours = await migrationsHash();
    expect(await migrationsHash(dir)).toBe(ours);
    const [first] = await migrationFiles(dir);
    await writeFile(path.join(dir, first ?? ''), '-- changed\n', { flag: 'a' });
    const changed = await migrationsHash(dir);
    expect(changed).not.toBe(ours);
    await writeFile(path.join(dir, '9999_new.sql'), 'select 1;\n');
    const added = await migrationsHash(dir);
    expect(added).not.toBe(changed);
    await rm(path.join(dir, '9999_new.sql'));
    expect(await migrationsHash(dir)).toBe(changed);
  });
});
