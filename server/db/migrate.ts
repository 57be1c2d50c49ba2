import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { Database } from './client.ts';
import { schemaMigrations } from './schema.ts';

const migrationsDir = fileURLToPath(new URL('./migrations/', import.meta.url));
/** Any constant: serialises migrations when several instances start at once on one server. */
const MIGRATION_LOCK_ID = 724_011;

/**
 * Applies the SQL files in `migrations/` in name order, each once, each in its own transaction.
 * Files are plain SQL that both PostgreSQL 15 and PGlite (PostgreSQL 18) accept.
 */
export async function migrate(db: Database): Promise<string[]> {
  const files = (await readdir(migrationsDir)).filter((f) => f.endsWith('.sql')).sort();
  const applied: string[] = [];
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`);
    await tx.execute(sql`create table if not exists schema_migrations (
      name text primary key,
      applied_at timestamptz not null default now()
    )`);
    const done = await tx.select({ name: schemaMigrations.name }).from(schemaMigrations);
    const doneNames = new Set(done.map((row) => row.name));
    for (const file of files) {
      if (doneNames.has(file)) continue;
      const text = await readFile(new URL(file, `file://${migrationsDir}`), 'utf8');
      for (const statement of splitStatements(text)) await tx.execute(sql.raw(statement));
      await tx.insert(schemaMigrations).values({ name: file });
      applied.push(file);
    }
  });
  return applied;
}

/** Splits a migration into statements at semicolons that end a line (PGlite runs one statement per call). */
export function splitStatements(text: string): string[] {
  return text
    .split(/;[ \t]*(?:--[^\n]*)?$/m)
    .map((statement) => statement.replace(/^\s*--[^\n]*$/gm, '').trim())
    .filter((statement) => statement.length > 0);
}
