import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { databaseTargets } from '#tests/support/databases.ts';
import * as schema from './schema.ts';

const columnRows = z.object({
  rows: z.array(z.object({ table_name: z.string(), column_name: z.string() })),
});

/** The Drizzle schema is written by hand beside the SQL migrations: this keeps the two in step. */
describe.each(databaseTargets)(
  'Drizzle schema matches the migrated database on $name',
  (target) => {
    it('has every table and column of the schema', async () => {
      const handle = await target.open();
      try {
        const result = columnRows.parse(
          await handle.db.execute(sql`select table_name, column_name from information_schema.columns
          where table_schema = 'public'`),
        );
        const actual = new Set(result.rows.map((row) => `${row.table_name}.${row.column_name}`));
        const tables: unknown[] = Object.values(schema);
        const expected = tables
          .filter((value): value is PgTable => value instanceof PgTable)
          .flatMap((table) => {
            const config = getTableConfig(table);
            return config.columns.map((column) => `${config.name}.${column.name}`);
          });
        expect(expected.length).toBeGreaterThan(0);
        expect(expected.filter((column) => !actual.has(column))).toEqual([]);
      } finally {
        await handle.close();
      }
    });
  },
);
