import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { Database, Executor } from './database.ts';
import { schemaMigrations } from './schema.ts';

const migrationsDir = fileURLToPath(new URL('./migrations/', import.meta.url));
/** Any constant: serialises migrations when several instances start at once on one server. */
const MIGRATION_LOCK_ID = 724_011;

export interface MigrateOptions {
  /** Apply only the migrations named here (an older schema version, e.g. a backup's); the rest stay pending. */
  only?: ReadonlySet<string>;
}

/** The names of the migrations this code carries, in the order they apply. */
export async function migrationFiles(): Promise<string[]> {
  return (await readdir(migrationsDir)).filter((f) => f.endsWith('.sql')).sort();
}

/**
 * Applies the SQL files in `migrations/` in name order, each once, all in one transaction.
 * Files are plain SQL that both PostgreSQL 15 and PGlite (PostgreSQL 18) accept.
 */
export async function migrate(db: Database, options: MigrateOptions = {}): Promise<string[]> {
  return db.transaction((tx) => migrateWithin(tx, options));
}

/** `migrate` inside a transaction the caller holds: a restore rebuilds the schema in its own. */
export async function migrateWithin(tx: Executor, options: MigrateOptions = {}): Promise<string[]> {
  const files = await migrationFiles();
  const applied: string[] = [];
  await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`);
  await tx.execute(sql`create table if not exists schema_migrations (
    name text primary key,
    applied_at timestamptz not null default now()
  )`);
  const done = await tx.select({ name: schemaMigrations.name }).from(schemaMigrations);
  const doneNames = new Set(done.map((row) => row.name));
  for (const file of files) {
    if (doneNames.has(file) || (options.only && !options.only.has(file))) continue;
    const text = await readFile(new URL(file, `file://${migrationsDir}`), 'utf8');
    for (const statement of splitStatements(text)) await tx.execute(sql.raw(statement));
    await tx.insert(schemaMigrations).values({ name: file });
    applied.push(file);
  }
  return applied;
}

/** Splits a migration into statements at semicolons that end a line (PGlite runs one statement per call). */
export function splitStatements(text: string): string[] {
  return text
    .split(/;[ \t]*(?:--[^\n]*)?$/m)
    .map((statement) => statement.replace(/^\s*--[^\n]*$/gm, '').trim())
    .filter((statement) => statement.length > 0);
}
