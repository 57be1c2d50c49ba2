import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { createGunzip, createGzip } from 'node:zlib';
import { z } from 'zod';
import type { Database, Executor } from '../db/client.ts';
import { createBackupRepository, inSnapshot, type TableInfo } from './backup-repository.ts';

/** The migration ledger is compared, not restored: the code that restores has its own. */
const MIGRATIONS_TABLE = 'schema_migrations';
const PAGE = 500;
export const BACKUP_FORMAT = 'orgsmith-backup';

const header = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.literal(1),
  createdAt: z.string(),
  database: z.enum(['pglite', 'postgres']),
  migrations: z.array(z.string()),
});
const tableStart = z.object({ table: z.string(), columns: z.array(z.string()) });
const rowsLine = z.object({ rows: z.array(z.record(z.string(), z.unknown())) });
const end = z.object({ end: z.literal(true), tables: z.number(), rows: z.number() });

export interface BackupSummary {
  tables: number;
  rows: number;
  bytes: number;
  migrations: number;
}

/** A restore that cannot go ahead, in words an operator can act on. */
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
 * so a backup of a running PostgreSQL is consistent. Written to `file.partial`, then renamed.
 */
export async function writeBackup(
  db: Database,
  file: string,
  meta: { database: 'pglite' | 'postgres'; now: Date },
): Promise<BackupSummary> {
  const partial = `${file}.partial`;
  const gzip = createGzip();
  const out = createWriteStream(partial);
  const piped = new Promise<void>((resolve, reject) => {
    out.on('finish', resolve);
    out.on('error', reject);
    gzip.on('error', reject);
  });
  gzip.pipe(out);
  let bytes = 0;
  const write = async (value: unknown) => {
    const line = `${JSON.stringify(value)}\n`;
    bytes += Buffer.byteLength(line);
    if (!gzip.write(line)) await once(gzip, 'drain');
  };
  try {
    const summary = await inSnapshot(db, async (tx) => {
      const repository = createBackupRepository(tx);
      const tables = await repository.tables();
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
        for (let offset = 0; ; offset += PAGE) {
          const page = await repository.readRows(table, offset, PAGE);
          if (page.length > 0) await write({ rows: page });
          rows += page.length;
          if (page.length < PAGE) break;
        }
      }
      const count = tables.filter((t) => t.name !== MIGRATIONS_TABLE).length;
      await write({ end: true, tables: count, rows });
      return { tables: count, rows, migrations: migrations.length };
    });
    gzip.end();
    await piped;
    await rename(partial, file);
    return { ...summary, bytes };
  } catch (error) {
    gzip.destroy();
    out.destroy();
    await rm(partial, { force: true });
    throw error;
  }
}

async function* lines(file: string): AsyncGenerator<unknown> {
  const input = createReadStream(file).pipe(createGunzip());
  const reader = createInterface({ input, crlfDelay: Infinity });
  for await (const line of reader) {
    if (line.trim() === '') continue;
    try {
      yield JSON.parse(line);
    } catch {
      throw new BackupError(`${file} is not an Orgsmith backup (a line is not JSON).`);
    }
  }
}

/**
 * Replaces every table's content with the backup's, in one transaction: either the whole backup
 * is restored or nothing changes. The backup must come from this version of the schema or an
 * older one (its migrations a subset of ours); columns added since take their defaults.
 */
export async function restoreBackup(db: Database, file: string): Promise<BackupSummary> {
  const current = new Set(await migrationNames(db));
  let restoredRows = 0;
  let restoredTables = 0;
  let bytes = 0;
  let migrations = 0;
  await db.transaction(async (tx) => {
    const repository = createBackupRepository(tx);
    const tables = new Map((await repository.tables()).map((t) => [t.name, t]));
    let table: TableInfo | undefined;
    let columns: string[] = [];
    let sawHeader = false;
    let sawEnd = false;
    try {
      for await (const value of lines(file)) {
        bytes += JSON.stringify(value).length + 1;
        if (!sawHeader) {
          const parsed = header.safeParse(value);
          if (!parsed.success) throw new BackupError(`${file} is not an Orgsmith backup.`);
          const newer = parsed.data.migrations.filter((name) => !current.has(name));
          if (newer.length > 0) {
            throw new BackupError(
              `${file} was made by a newer version (migrations ${newer.join(', ')}). Restore it with that version.`,
            );
          }
          migrations = parsed.data.migrations.length;
          sawHeader = true;
          await repository.truncateAll(
            [...tables.values()].filter((t) => t.name !== MIGRATIONS_TABLE),
          );
          continue;
        }
        const start = tableStart.safeParse(value);
        if (start.success) {
          if (table) await repository.resetIdentities(table);
          table = tables.get(start.data.table);
          if (!table)
            throw new BackupError(
              `The backup has a table this version does not know: ${start.data.table}.`,
            );
          const known = new Set(table.columns);
          columns = start.data.columns.filter((column) => known.has(column));
          restoredTables += 1;
          continue;
        }
        const page = rowsLine.safeParse(value);
        if (page.success && table) {
          await repository.insertRows(table, columns, page.data.rows);
          restoredRows += page.data.rows.length;
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
        throw new BackupError(`${file} is damaged: an unexpected line.`);
      }
    } catch (error) {
      if (error instanceof BackupError) throw error;
      if (error instanceof Error && 'code' in error && error.code === 'Z_BUF_ERROR') {
        throw new BackupError(`${file} is cut short (incomplete gzip data).`);
      }
      throw error;
    }
    if (table) await repository.resetIdentities(table);
    if (!sawEnd) throw new BackupError(`${file} is cut short: it has no end marker.`);
  });
  return { tables: restoredTables, rows: restoredRows, bytes, migrations };
}

/** How many rows the database holds, the migration ledger aside. */
export async function databaseRowCount(db: Database): Promise<number> {
  const repository = createBackupRepository(db);
  let rows = 0;
  for (const table of await repository.tables()) {
    if (table.name !== MIGRATIONS_TABLE) rows += await repository.countRows(table);
  }
  return rows;
}

/** Row counts and content digests of every table except the migration ledger. */
export async function databaseFingerprint(
  db: Database,
): Promise<Record<string, { rows: number; digest: string }>> {
  const repository = createBackupRepository(db);
  const result: Record<string, { rows: number; digest: string }> = {};
  for (const table of await repository.tables()) {
    if (table.name === MIGRATIONS_TABLE) continue;
    result[table.name] = await repository.fingerprint(table);
  }
  return result;
}
