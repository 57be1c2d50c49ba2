import { unlimitedStatements } from '../platform/db/connection-settings.ts';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';
import { z } from 'zod';
import type { Database, Executor } from '../platform/db/database.ts';
import { migrateWithin, migrationFiles } from '../platform/db/migrate.ts';
import { createBackupRepository, inSnapshot, type TableInfo } from './backup-repository.ts';
import { describeDatabaseError } from './describe-database-error.ts';
import { writePrivateFile } from '../platform/data-dir/write-private-file.ts';

/** The migration ledger is compared, not restored: the code that restores has its own. */
const MIGRATIONS_TABLE = 'schema_migrations';
/**
 * Tables that hold a cache, not data (decision 238): rate-limit counters (UNLOGGED) and the live
 * instances' heartbeats. A backup leaves their rows out; a restore starts them empty.
 */
export const CACHE_TABLES: ReadonlySet<string> = new Set(['rate_limit_counters', 'live_instances']);
/** Rows per line of the file: one fetch from the snapshot's cursor and one insert when restored. */
const PAGE = 2000;
/**
 * JSON lines wait here for gzip, so the snapshot (while it is read, the embedded database serves
 * nothing else) ends before the compression does; the memory a backup takes stays bounded.
 */
const SNAPSHOT_BUFFER_BYTES = 16 * 1024 * 1024;
export const BACKUP_FORMAT = 'orgsmith-backup';

const header = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.literal(1),
  createdAt: z.string(),
  database: z.enum(['pglite', 'postgres']),
  /** Every backup ever written lists the migrations its database had applied: its schema version. */
  migrations: z.array(z.string()),
});
const tableStart = z.object({ table: z.string(), columns: z.array(z.string()) });
/** `{ rows: [ {…}, … ] }`, checked by hand: it runs for every row of a restore. */
function isRowsLine(value: unknown): value is { rows: object[] } {
  if (typeof value !== 'object' || value === null || !('rows' in value)) return false;
  const rows = value.rows;
  return (
    Array.isArray(rows) &&
    rows.every((row: unknown) => typeof row === 'object' && row !== null && !Array.isArray(row))
  );
}
const end = z.object({ end: z.literal(true), tables: z.number(), rows: z.number() });

export interface BackupSummary {
  tables: number;
  rows: number;
  bytes: number;
  migrations: number;
}

export interface RestoreSummary extends BackupSummary {
  /** Migrations run over the restored rows because the backup came from an older version. */
  migrated: string[];
}

/** A restore that cannot go ahead, in words an operator can act on and without any row's values. */
export class BackupError extends Error {
  override name = 'BackupError';
}

async function migrationNames(db: Executor): Promise<string[]> {
  const repository = createBackupRepository(db);
  const ledger = (await repository.tables()).find((t) => t.name === MIGRATIONS_TABLE);
  if (!ledger) return [];
  const rows = await repository.readRows(ledger, 0, 100_000);
  return z
    .array(z.object({ name: z.string() }))
    .parse(rows)
    .map((row) => row.name)
    .sort();
}

/**
 * Writes the whole database to `file` (gzip, one JSON document per line: a header, then each
 * table's columns and rows in pages, then an end marker with the counts). One read-only snapshot,
 * so a backup of a running PostgreSQL is consistent. The file holds every customer address and
 * the service's secrets: it is written owner-only (0600) and atomically (writePrivateFile).
 */
export async function writeBackup(
  db: Database,
  file: string,
  meta: { database: 'pglite' | 'postgres'; now: Date },
): Promise<BackupSummary> {
  const gzip = createGzip();
  const input = new PassThrough({ highWaterMark: SNAPSHOT_BUFFER_BYTES });
  input.pipe(gzip);
  const written = writePrivateFile(file, gzip);
  // Its failure is awaited below; until then it must not count as unhandled and end the process.
  let writeFailed = false;
  written.catch(() => (writeFailed = true));
  let bytes = 0;
  const write = async (value: unknown) => writeLine(`${JSON.stringify(value)}\n`);
  const writeLine = async (line: string) => {
    // The file cannot be written: stop reading now rather than when the buffer is full.
    if (writeFailed) await written;
    bytes += Buffer.byteLength(line);
    // A failed file write stops the reader: then wait for that failure, not for room.
    if (!input.write(line)) await Promise.race([once(input, 'drain'), written]);
  };
  try {
    const summary = await inSnapshot(db, async (tx) => {
      const repository = createBackupRepository(tx);
      const tables = (await repository.tables()).filter((t) => !CACHE_TABLES.has(t.name));
      const migrations = await migrationNames(tx);
      await write({
        format: BACKUP_FORMAT,
        version: 1,
        createdAt: meta.now.toISOString(),
        database: meta.database,
        migrations,
      });
      let rows = 0;
      for (const table of tables) {
        if (table.name === MIGRATIONS_TABLE) continue;
        await write({ table: table.name, columns: table.columns });
        for await (const page of repository.readPages(table, PAGE)) {
          // The rows as PostgreSQL wrote them: `{"rows":[…]}`, the same line JSON.stringify gives.
          await writeLine(`{"rows":[${page.join(',')}]}\n`);
          rows += page.length;
        }
      }
      const count = tables.filter((t) => t.name !== MIGRATIONS_TABLE).length;
      await write({ end: true, tables: count, rows });
      return { tables: count, rows, migrations: migrations.length };
    });
    input.end();
    await written;
    return { ...summary, bytes };
  } catch (error) {
    // The writer removes its temporary file once the stream it reads from closes unfinished.
    input.destroy();
    gzip.destroy();
    await written.catch(() => undefined);
    throw error;
  }
}

async function* lines(
  file: string,
): AsyncGenerator<{ value: unknown; text: string; line: number; bytes: number }> {
  const input = createReadStream(file).pipe(createGunzip());
  const reader = createInterface({ input, crlfDelay: Infinity });
  let line = 0;
  for await (const text of reader) {
    line += 1;
    if (text.trim() === '') continue;
    try {
      yield { value: JSON.parse(text), text, line, bytes: Buffer.byteLength(text) + 1 };
    } catch (error) {
      if (error instanceof SyntaxError) {
        throw new BackupError(`${file} is not an Orgsmith backup (line ${line} is not JSON).`);
      }
      throw error;
    }
  }
}

const sameNames = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((name) => b.includes(name));

/** A failure at `line` of `file` as a BackupError that names where and why, never a value. */
function restoreFailure(error: unknown, file: string, line: number, table?: string): BackupError {
  if (error instanceof BackupError) return error;
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  if (code === 'Z_BUF_ERROR')
    return new BackupError(`${file} is cut short (incomplete gzip data).`);
  if (code === 'Z_DATA_ERROR')
    return new BackupError(`${file} is not an Orgsmith backup (not gzip).`);
  const where = `${file}, line ${line}`;
  const described = describeDatabaseError(error);
  if (described) {
    const inTable = described.table ?? table;
    return new BackupError(`${where}${inTable ? ` (table ${inTable})` : ''}: ${described.text}.`);
  }
  // File-system errors name a path at most; anything else is named by its kind only.
  if (error instanceof Error && 'syscall' in error) return new BackupError(error.message);
  const kind = error instanceof Error ? error.name : typeof error;
  return new BackupError(
    `${where}: the restore stopped (${kind}${code ? ` ${String(code)}` : ''}).`,
  );
}

/**
 * Replaces the database with the backup, in one transaction: either the whole backup is restored
 * or nothing changes. A backup from an older schema version is restored at its own version
 * (the tables dropped and rebuilt by its migrations only), then the later migrations run over
 * its rows, data migrations included, as they would have run over the live database.
 */
export async function restoreBackup(db: Database, file: string): Promise<RestoreSummary> {
  const known = await migrationFiles();
  let restoredRows = 0;
  let restoredTables = 0;
  let bytes = 0;
  let migrations = 0;
  const migrated: string[] = [];
  let line = 0;
  let table: TableInfo | undefined;
  try {
    await db.transaction(async (tx) => {
      // A restore rebuilds each table's indexes over all its rows: no statement limit here.
      await tx.execute(unlimitedStatements);
      const repository = createBackupRepository(tx);
      let tables = new Map<string, TableInfo>();
      let columns: string[] = [];
      let sawHeader = false;
      let sawEnd = false;
      /** The indexes dropped while the current table loads, built again once its rows are in. */
      let loadIndexes: string[] = [];
      const finishTable = async (loaded: TableInfo) => {
        await repository.setOwnTriggers(loaded, true);
        await repository.createIndexes(loadIndexes);
        loadIndexes = [];
        await repository.resetIdentities(loaded);
      };
      for await (const entry of lines(file)) {
        line = entry.line;
        bytes += entry.bytes;
        const value = entry.value;
        if (!sawHeader) {
          const parsed = header.safeParse(value);
          if (!parsed.success) throw new BackupError(`${file} is not an Orgsmith backup.`);
          const newer = parsed.data.migrations.filter((name) => !known.includes(name));
          if (newer.length > 0) {
            throw new BackupError(
              `${file} was made by a newer version (migrations ${newer.join(', ')}). Restore it with that version.`,
            );
          }
          migrations = parsed.data.migrations.length;
          sawHeader = true;
          if (!sameNames(parsed.data.migrations, await migrationNames(tx))) {
            // The schema as the backup's version had it, so its rows fit as they were taken.
            await repository.dropTables(await repository.tables());
            // In a savepoint: its own transaction id, so the restored rows never pass for seed rows.
            await tx.transaction((sp) =>
              migrateWithin(sp, { only: new Set(parsed.data.migrations) }),
            );
          }
          tables = new Map((await repository.tables()).map((t) => [t.name, t]));
          await repository.truncateAll(
            [...tables.values()].filter((t) => t.name !== MIGRATIONS_TABLE),
          );
          continue;
        }
        if (sawEnd)
          throw new BackupError(`${file} is damaged: line ${line} follows the end marker.`);
        const start = tableStart.safeParse(value);
        if (start.success) {
          if (table) await finishTable(table);
          table = tables.get(start.data.table);
          if (!table || start.data.table === MIGRATIONS_TABLE) {
            throw new BackupError(
              `${file}, line ${line}: a table its schema version does not have: ${start.data.table}.`,
            );
          }
          const tableColumns = new Set(table.columns);
          const unknown = start.data.columns.filter((column) => !tableColumns.has(column));
          if (unknown.length > 0) {
            throw new BackupError(
              `${file}, line ${line}: table ${table.name} has columns its schema version does not have: ${unknown.join(', ')}.`,
            );
          }
          columns = start.data.columns;
          restoredTables += 1;
          loadIndexes = await repository.dropLoadIndexes(table);
          await repository.setOwnTriggers(table, false);
          continue;
        }
        if (isRowsLine(value) && table) {
          // PostgreSQL reads the line's own text; the row count it reports must be the line's.
          const inserted = await repository.insertPage(table, columns, entry.text);
          if (inserted !== value.rows.length) {
            throw new BackupError(
              `${file} is damaged: line ${line} holds rows that are not objects.`,
            );
          }
          restoredRows += inserted;
          continue;
        }
        const last = end.safeParse(value);
        if (last.success) {
          if (last.data.rows !== restoredRows || last.data.tables !== restoredTables) {
            throw new BackupError(`${file} is damaged: its counts do not match its rows.`);
          }
          sawEnd = true;
          continue;
        }
        throw new BackupError(`${file} is damaged: line ${line} is not what a backup holds.`);
      }
      if (table) await finishTable(table);
      table = undefined;
      if (!sawEnd) throw new BackupError(`${file} is cut short: it has no end marker.`);
      // One migration at a time, so a failure names the one that could not take these rows.
      for (const name of known) {
        try {
          migrated.push(
            ...(await tx.transaction((sp) => migrateWithin(sp, { only: new Set([name]) }))),
          );
        } catch (error) {
          const described = describeDatabaseError(error);
          if (!described) throw error;
          const inTable = described.table ? ` (table ${described.table})` : '';
          throw new BackupError(
            `${file}: its rows could not be migrated forward, migration ${name} failed${inTable}: ${described.text}.`,
          );
        }
      }
    });
  } catch (error) {
    throw restoreFailure(error, file, line, table?.name);
  }
  return { tables: restoredTables, rows: restoredRows, bytes, migrations, migrated };
}

/**
 * How many rows the database holds that its migrations did not write: 0 for a freshly migrated
 * database with the release catalog's seed rows, so a restore there needs no --replace.
 */
export async function databaseDataRowCount(db: Database): Promise<number> {
  const repository = createBackupRepository(db);
  let rows = 0;
  for (const table of await repository.tables()) {
    if (table.name === MIGRATIONS_TABLE || CACHE_TABLES.has(table.name)) continue;
    rows += await repository.countRowsSinceMigrations(table);
  }
  return rows;
}

/** Row counts and content digests of every table except the migration ledger and the caches. */
export async function databaseFingerprint(
  db: Database,
): Promise<Record<string, { rows: number; digest: string }>> {
  const repository = createBackupRepository(db);
  const result: Record<string, { rows: number; digest: string }> = {};
  for (const table of await repository.tables()) {
    if (table.name === MIGRATIONS_TABLE || CACHE_TABLES.has(table.name)) continue;
    result[table.name] = await repository.fingerprint(table);
  }
  return result;
}
