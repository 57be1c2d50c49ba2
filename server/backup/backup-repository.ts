import { unlimitedStatements } from '../platform/db/connection-settings.ts';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database, Executor } from '../platform/db/database.ts';

/** A table of the schema, with the columns a backup carries and the identity column to reset. */
export interface TableInfo {
  name: string;
  /** The columns a restore writes: not those the database generates (e.g. `email_normalized`). */
  columns: string[];
  /** `generated … as identity` or serial columns, whose sequences follow the restored rows. */
  identityColumns: string[];
}

const tableRows = z.array(z.object({ name: z.string() }));
const columnRows = z.array(
  z.object({ table: z.string(), column: z.string(), identity: z.boolean() }),
);
const edgeRows = z.array(z.object({ child: z.string(), parent: z.string() }));

function rowsOf(result: unknown): unknown {
  return typeof result === 'object' && result !== null && 'rows' in result ? result.rows : [];
}

/** The `row` column of a page of rows, checked cheaply: this runs for every row of a backup. */
function textRows(rows: unknown): string[] {
  if (!Array.isArray(rows)) throw new TypeError('a backup page is not a list of rows');
  return rows.map((row: unknown) => {
    const text = typeof row === 'object' && row !== null && 'row' in row ? row.row : undefined;
    if (typeof text !== 'string') throw new TypeError('a backup row is not JSON text');
    return text;
  });
}

/** Rows an insert wrote, as both drivers report it. */
function affectedRows(result: unknown): number {
  if (typeof result !== 'object' || result === null) return 0;
  if ('affectedRows' in result && typeof result.affectedRows === 'number')
    return result.affectedRows;
  if ('rowCount' in result && typeof result.rowCount === 'number') return result.rowCount;
  return 0;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Reads and replaces the whole database as JSON rows, table by table (decision 113). Tables are
 * found in the catalog, so a new migration needs no change here; PostgreSQL converts every value
 * to JSON and back with the column's own type (`row_to_json`, `json_populate_recordset`).
 */
export function createBackupRepository(db: Executor) {
  return {
    /** Every table of the public schema, parents before the tables that reference them. */
    async tables(): Promise<TableInfo[]> {
      const names = tableRows
        .parse(
          rowsOf(
            await db.execute(
              sql`select tablename as name from pg_tables where schemaname = 'public' order by tablename`,
            ),
          ),
        )
        .map((row) => row.name);
      const columns = columnRows.parse(
        rowsOf(
          await db.execute(sql`
            select table_name as "table", column_name as "column",
              (is_identity = 'YES' or coalesce(column_default, '') like 'nextval(%') as identity
            from information_schema.columns
            where table_schema = 'public' and is_generated = 'NEVER'
            order by table_name, ordinal_position`),
        ),
      );
      const edges = edgeRows.parse(
        rowsOf(
          await db.execute(sql`
            select child.relname as child, parent.relname as parent
            from pg_constraint c
            join pg_class child on child.oid = c.conrelid
            join pg_class parent on parent.oid = c.confrelid
            join pg_namespace n on n.oid = child.relnamespace
            where c.contype = 'f' and n.nspname = 'public' and child.oid <> parent.oid`),
        ),
      );
      const ordered: string[] = [];
      const visiting = new Set<string>();
      const visit = (name: string) => {
        if (ordered.includes(name) || visiting.has(name)) return;
        visiting.add(name);
        for (const edge of edges) if (edge.child === name) visit(edge.parent);
        ordered.push(name);
      };
      for (const name of names) visit(name);
      return ordered.map((name) => ({
        name,
        columns: columns.filter((c) => c.table === name).map((c) => c.column),
        identityColumns: columns.filter((c) => c.table === name && c.identity).map((c) => c.column),
      }));
    },

    /** One page of a table's rows as JSON objects, in a stable order (by its first column). */
    async readRows(table: TableInfo, offset: number, limit: number): Promise<unknown[]> {
      const order = table.columns.map(quote).join(', ');
      const result = await db.execute(
        sql.raw(
          `select row_to_json(t) as row from (select * from ${quote(table.name)} order by ${order} offset ${offset} limit ${limit}) t`,
        ),
      );
      return z
        .array(z.object({ row: z.unknown() }))
        .parse(rowsOf(result))
        .map((r) => r.row);
    },

    /**
     * Every row of a table as JSON text (one object per row, PostgreSQL's own `row_to_json`),
     * `pageSize` at a time. One cursor over the snapshot in the table's stored order: no sort, and
     * the text goes to the file as PostgreSQL wrote it, never parsed and written again here
     * (decision 198). Only inside a transaction.
     */
    async *readPages(table: TableInfo, pageSize: number): AsyncGenerator<string[]> {
      await db.execute(
        sql.raw(
          `declare orgsmith_backup no scroll cursor for select row_to_json(t)::text as row from ${quote(table.name)} t`,
        ),
      );
      try {
        for (;;) {
          const result = await db.execute(sql.raw(`fetch ${pageSize} from orgsmith_backup`));
          const page = textRows(rowsOf(result));
          if (page.length > 0) yield page;
          if (page.length < pageSize) return;
        }
      } finally {
        // After a failed statement the transaction is over, and with it the cursor: keep that error.
        await db.execute(sql.raw('close orgsmith_backup')).catch(() => undefined);
      }
    },

    /**
     * Empties every table (identity sequences restart); for a restore in the same transaction.
     * The tables' own triggers are off meanwhile: the audit log refuses TRUNCATE to everyone else
     * (decision 224), and a restore replaces it with the backup's, as every other table.
     */
    async truncateAll(tables: readonly TableInfo[]): Promise<void> {
      if (tables.length === 0) return;
      const names = tables.map((t) => quote(t.name));
      for (const name of names)
        await db.execute(sql.raw(`alter table ${name} disable trigger user`));
      await db.execute(sql.raw(`truncate ${names.join(', ')} restart identity cascade`));
      for (const name of names)
        await db.execute(sql.raw(`alter table ${name} enable trigger user`));
    },

    /** Drops tables with their indexes, constraints and sequences; a restore then rebuilds them. */
    async dropTables(tables: readonly TableInfo[]): Promise<void> {
      if (tables.length === 0) return;
      await db.execute(
        sql.raw(`drop table ${tables.map((t) => quote(t.name)).join(', ')} cascade`),
      );
    },

    /**
     * Inserts the rows of `page`, the JSON text of an object whose `rows` holds one object per row
     * (a backup line as written); columns missing from them take their defaults. PostgreSQL reads
     * the text itself: the restore never rebuilds it.
     */
    async insertPage(table: TableInfo, columns: readonly string[], page: string): Promise<number> {
      const list = columns.map(quote).join(', ');
      const overriding = table.identityColumns.length > 0 ? 'overriding system value' : '';
      const result = await db.execute(
        sql`${sql.raw(`insert into ${quote(table.name)} (${list}) ${overriding} select ${list} from json_populate_recordset(null::${quote(table.name)}, `)}(${page}::json -> 'rows'))`,
      );
      return affectedRows(result);
    },

    /**
     * Drops the table's indexes that neither back a constraint nor enforce uniqueness, and
     * returns their definitions: a restore loads the rows first and builds each index once after
     * (createIndexes), instead of updating it row by row. In the restore's transaction, so a
     * failed restore gives them back with everything else.
     */
    async dropLoadIndexes(table: TableInfo): Promise<string[]> {
      const result = await db.execute(sql`
        select quote_ident(i.relname) as name, pg_get_indexdef(x.indexrelid) as definition
        from pg_index x
        join pg_class i on i.oid = x.indexrelid
        join pg_class t on t.oid = x.indrelid
        join pg_namespace n on n.oid = t.relnamespace
        where n.nspname = 'public' and t.relname = ${table.name} and not x.indisunique
          and not exists (select 1 from pg_constraint c where c.conindid = x.indexrelid)`);
      const indexes = z
        .array(z.object({ name: z.string(), definition: z.string() }))
        .parse(rowsOf(result));
      for (const index of indexes) await db.execute(sql.raw(`drop index ${index.name}`));
      return indexes.map((index) => index.definition);
    },

    /**
     * Turns the table's own triggers off or on again (not the foreign-key checks). While a restore
     * loads a table they are off: each restored row carries what they computed when it was written
     * (e.g. `next_lifecycle_at`, decision 175), and firing them per row costs the load its time.
     */
    async setOwnTriggers(table: TableInfo, on: boolean): Promise<void> {
      await db.execute(
        sql.raw(`alter table ${quote(table.name)} ${on ? 'enable' : 'disable'} trigger user`),
      );
    },

    /** Builds indexes from their definitions (dropLoadIndexes). */
    async createIndexes(definitions: readonly string[]): Promise<void> {
      for (const definition of definitions) await db.execute(sql.raw(definition));
    },

    /** Moves each identity sequence past the largest restored value. */
    async resetIdentities(table: TableInfo): Promise<void> {
      for (const column of table.identityColumns) {
        await db.execute(
          sql`select setval(pg_get_serial_sequence(${quote(table.name)}, ${column}), coalesce((select max(${sql.raw(quote(column))}) from ${sql.raw(quote(table.name))}), 0) + 1, false)`,
        );
      }
    },

    /**
     * Rows written since the migrations: a row whose `xmin` (the transaction that wrote it) is
     * the transaction that recorded a migration is that migration's seed row (decision 130).
     */
    async countRowsSinceMigrations(table: TableInfo): Promise<number> {
      const result = await db.execute(
        sql.raw(
          `select count(*)::int as rows from ${quote(table.name)} where xmin not in (select xmin from schema_migrations)`,
        ),
      );
      const [row] = z.array(z.object({ rows: z.number() })).parse(rowsOf(result));
      return row?.rows ?? 0;
    },

    /** How many rows each table holds, and a digest of its content (to compare two databases). */
    async fingerprint(table: TableInfo): Promise<{ rows: number; digest: string }> {
      const result = await db.execute(
        sql.raw(
          `select count(*)::int as rows, coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as digest from ${quote(table.name)} t`,
        ),
      );
      const [row] = z
        .array(z.object({ rows: z.number(), digest: z.string() }))
        .parse(rowsOf(result));
      return row ?? { rows: 0, digest: '' };
    },
  };
}

export type BackupRepository = ReturnType<typeof createBackupRepository>;

/** Runs `work` in one transaction that sees one snapshot of the whole database. */
export function inSnapshot<T>(db: Database, work: (tx: Executor) => Promise<T>): Promise<T> {
  return db.transaction(
    async (tx) => {
      // A backup's reads grow with the data: no statement limit in its snapshot.
      await tx.execute(unlimitedStatements);
      return work(tx);
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}
