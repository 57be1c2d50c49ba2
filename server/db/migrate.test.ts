import { describe, expect, it } from 'vitest';
import { databaseTargets } from '#tests/helpers/databases.ts';
import { migrate, splitStatements } from './migrate.ts';
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
});
