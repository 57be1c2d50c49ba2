import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import * as schema from '#server/platform/db/schema.ts';
import { retentionPolicy, retentionTableMarkdown } from './retention-policy.ts';

const docFile = new URL('../../../docs/retention.md', import.meta.url);

describe('the retention policy', () => {
  it('is the table of docs/retention.md', async () => {
    const doc = await readFile(docFile, 'utf8');
    const table = /<!-- retention-table:start -->\n([\s\S]*?)\n<!-- retention-table:end -->/.exec(
      doc,
    )?.[1];
    // On a difference, paste the expected table between the markers.
    expect(table).toBe(retentionTableMarkdown());
  });

  it('names only real tables and columns', () => {
    const tables = new Map<string, Set<string>>();
    for (const value of Object.values(schema) as unknown[]) {
      if (!(value instanceof PgTable)) continue;
      const config = getTableConfig(value);
      tables.set(config.name, new Set(config.columns.map((column) => column.name)));
    }
    for (const entry of retentionPolicy) {
      const columns = tables.get(entry.table);
      expect(columns, entry.table).toBeDefined();
      for (const column of entry.columns)
        expect(columns?.has(column), `${entry.table}.${column}`).toBe(true);
    }
  });

  it('covers every table with an address, a name or a provider id', () => {
    const personal = /email|address|name|company|customer_id|subscription_id|org_id|message/;
    const covered = new Set(retentionPolicy.map((entry) => entry.table));
    const missing: string[] = [];
    for (const value of Object.values(schema) as unknown[]) {
      if (!(value instanceof PgTable)) continue;
      const config = getTableConfig(value);
      if (
        config.columns.some((column) => personal.test(column.name)) &&
        !covered.has(config.name)
      ) {
        missing.push(config.name);
      }
    }
    // Their names are of files, keys, migrations and jobs: no person's data.
    const impersonal = ['release_artifacts', 'signing_keys', 'schema_migrations', 'job_runs'];
    expect(missing.filter((name) => !impersonal.includes(name))).toEqual([]);
  });
});
