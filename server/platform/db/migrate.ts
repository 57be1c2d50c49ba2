import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import type { Database, Executor } from './database.ts';
import { schemaMigrations } from './schema.ts';

const migrationsDir = fileURLToPath(new URL('./migrations', import.meta.url));
/** Any constant: serialises migrations when several instances start at once on one server. */
const MIGRATION_LOCK_ID = 724_011;

export interface MigrateOptions {
  /** Apply only the migrations named here (an older schema version, e.g. a backup's); the rest stay pending. */
  only?: ReadonlySet<string>;
  /** Where the SQL files are; the ones this code carries unless a test says otherwise. */
  directory?: string;
}

/** The names of the migrations in `directory` (this code's own by default), in the order they apply. */
export async function migrationFiles(directory = migrationsDir): Promise<string[]> {
  return (await readdir(directory)).filter((f) => f.endsWith('.sql')).sort();
}

/**
 * Applies the SQL files in `migrations/` in name order, each once and each in its own
 * transaction: a file that fails is rolled back whole and stops the run, the files before it stay
 * applied (decision 133). Files are plain SQL that both PostgreSQL 15 and PGlite (PostgreSQL 18)
 * accept, run as written: `$$` bodies and all.
 */
export async function migrate(db: Database, options: MigrateOptions = {}): Promise<string[]> {
  const directory = options.directory ?? migrationsDir;
  const pending = await db.transaction(async (tx) => {
    await prepare(tx);
    return pendingFiles(tx, directory, options);
  });
  const applied: string[] = [];
  for (const file of pending) {
    const done = await db
      .transaction(async (tx) => {
        await prepare(tx);
        // Another instance may have applied it while this one waited for the lock.
        if (await isApplied(tx, file)) return false;
        await applyFile(tx, directory, file);
        return true;
      })
      .catch((error: unknown) => {
        throw new Error(`Migration ${file} failed and was rolled back: ${innermost(error)}`, {
          cause: error,
        });
      });
    if (done) applied.push(file);
  }
  return applied;
}

/**
 * `migrate` inside a transaction the caller holds (a restore rebuilds the schema in its own): the
 * files then stand or fall together with the caller's transaction.
 */
export async function migrateWithin(tx: Executor, options: MigrateOptions = {}): Promise<string[]> {
  const directory = options.directory ?? migrationsDir;
  await prepare(tx);
  const applied: string[] = [];
  for (const file of await pendingFiles(tx, directory, options)) {
    await applyFile(tx, directory, file);
    applied.push(file);
  }
  return applied;
}

/** The database's own words: drizzle wraps them in a "Failed query" that repeats the whole file. */
function innermost(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return current instanceof Error ? current.message : String(current);
}

/** Takes the migration lock for this transaction and makes sure the ledger exists. */
async function prepare(tx: Executor): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`);
  await tx.execute(sql`create table if not exists schema_migrations (
    name text primary key,
    applied_at timestamptz not null default now()
  )`);
}

async function pendingFiles(
  tx: Executor,
  directory: string,
  options: MigrateOptions,
): Promise<string[]> {
  const done = await tx.select({ name: schemaMigrations.name }).from(schemaMigrations);
  const doneNames = new Set(done.map((row) => row.name));
  return (await migrationFiles(directory)).filter(
    (file) => !doneNames.has(file) && (!options.only || options.only.has(file)),
  );
}

async function isApplied(tx: Executor, file: string): Promise<boolean> {
  const rows = await tx
    .select({ name: schemaMigrations.name })
    .from(schemaMigrations)
    .where(eq(schemaMigrations.name, file));
  return rows.length > 0;
}

/** Runs one file whole and records it, in the caller's transaction (the seed rows share its xmin). */
async function applyFile(tx: Executor, directory: string, file: string): Promise<void> {
  await runScript(tx, await readFile(path.join(directory, file), 'utf8'));
  await tx.insert(schemaMigrations).values({ name: file });
}

/** PGlite's transaction handle: `exec` runs several statements in one call. */
interface ScriptRunner {
  exec(text: string): Promise<unknown>;
}

function isScriptRunner(value: unknown): value is ScriptRunner {
  return (
    typeof value === 'object' && value !== null && typeof Reflect.get(value, 'exec') === 'function'
  );
}

/**
 * Runs a whole SQL file on the transaction's own connection, without splitting it into
 * statements. PGlite's `query` takes one statement, so its transaction's `exec` runs the file;
 * node-postgres sends a query without parameters over the simple protocol, which takes many.
 */
async function runScript(tx: Executor, text: string): Promise<void> {
  const client: unknown = Reflect.get(tx._.session, 'client');
  if (isScriptRunner(client)) await client.exec(text);
  else await tx.execute(sql.raw(text));
}
