import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { databaseTargets } from '#tests/helpers/databases.ts';
import { migrationsBefore, openOlderDatabase } from '#tests/helpers/older-schema.ts';
import { migrate, migrationFiles, splitStatements } from './migrate.ts';
import { schemaMigrations } from './schema.ts';

describe('splitStatements', () => {
  it('splits at line-ending semicolons and drops comments', () => {
    const text = '-- a table\ncreate table a (x int);\n\ncreate index b on a (x); -- fast\n';
    expect(splitStatements(text)).toEqual(['create table a (x int)', 'create index b on a (x)']);
  });
});

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
