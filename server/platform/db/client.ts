import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { sql } from 'drizzle-orm';
import { attributed } from './audit-settings.ts';
import pg from 'pg';
import { PRIVATE_DIR_MODE, tightenTree } from '../data-dir/make-data-dir-private.ts';
import * as schema from './schema.ts';
import type { Database } from './database.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { migrate } from './migrate.ts';
import {
  DEFAULT_DATABASE_TIMEOUTS,
  startupOptions,
  type DatabaseTimeouts,
} from './connection-settings.ts';
import { createPgNotifications, type NotificationHandler } from './notifications.ts';

/** What the PostgreSQL connection pool holds right now (`/metrics`). */
export interface DatabasePoolStats {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** PostgreSQL through a pooler in transaction mode (DATABASE_DIRECT_URL differs from DATABASE_URL). */
  pooled?: boolean;
  /** The connection pool's counts; PostgreSQL only (PGlite is one connection in this process). */
  poolStats?: () => DatabasePoolStats;
  /**
   * Runs `handler` for every `NOTIFY` on `channel` (from any process on the same database) until
   * the returned function is called; `undefined` means notifications may have been missed.
   */
  listen(channel: string, handler: NotificationHandler): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

function pgliteListen(client: PGlite): DatabaseHandle['listen'] {
  return async (channel, handler) => {
    const unlisten = await client.listen(channel, (payload) => handler(payload));
    return () => unlisten();
  };
}

/**
 * PGlite runs PostgreSQL inside this process, so its shared buffers are this process's memory,
 * never handed back: 16 MB instead of PostgreSQL's 128 MB holds this service's working set (the
 * whole database is a few MB) at a third of the resident memory (decision 135).
 */
export const PGLITE_SHARED_BUFFERS = '16MB';

/**
 * PGlite and its drizzle driver, imported only when the embedded database is used: a server on
 * PostgreSQL never loads them (decision 135).
 */
async function loadPglite() {
  const [{ PGlite }, { drizzle }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('drizzle-orm/pglite'),
  ]);
  const options = {
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
  };
  return { PGlite, drizzlePglite: drizzle, pgliteOptions: options };
}

export interface OpenDatabaseOptions {
  /** PostgreSQL server URL; when absent the embedded PGlite is used. */
  databaseUrl?: string | undefined;
  /** Directory for PGlite's files; `undefined` with no databaseUrl means in-memory (tests). */
  dataDir?: string | undefined;
  /**
   * Told when this process lost its lock on the embedded database's directory (decision 133);
   * it must stop at once. By default the process prints why and exits.
   */
  onLockLost?: (error: Error) => void;
  /** PostgreSQL: connections the pool may open (DATABASE_POOL_MAX, default 10). */
  poolMax?: number;
  /**
   * PostgreSQL itself, for LISTEN and migrations (DATABASE_DIRECT_URL); default `databaseUrl`.
   * When it differs, `databaseUrl` is taken to be a pooler in transaction mode (decision 237).
   */
  directUrl?: string | undefined;
  /** PostgreSQL's time limits on every connection (DATABASE_*_TIMEOUT_MS). */
  timeouts?: DatabaseTimeouts;
}

/** One round trip to the database (readiness checks). */
export async function pingDatabase(db: Database): Promise<void> {
  await db.execute(sql`select 1`);
}

/**
 * Applies the pending migrations on one connection straight to PostgreSQL (DATABASE_DIRECT_URL),
 * closed again before the pool opens. No time limits: a migration's statements grow with the
 * data (an index over every row), and between them the migrator itself is working, not a client
 * that went away (a loaded machine once took longer than a tight idle limit there).
 */
async function migrateDirect(directUrl: string): Promise<void> {
  const connection = new pg.Pool({
    connectionString: directUrl,
    max: 1,
    connectionTimeoutMillis: 5_000,
    options: startupOptions({ statementTimeoutMs: 0, idleInTransactionTimeoutMs: 0 }),
  });
  connection.on('error', () => undefined);
  try {
    await migrate(attributed(drizzlePg(connection, { schema })));
  } finally {
    await connection.end();
  }
}

/** Opens the database and applies every pending migration before returning. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const directUrl = options.directUrl ?? options.databaseUrl;
    const timeouts = options.timeouts ?? DEFAULT_DATABASE_TIMEOUTS;
    // Through a pooler in transaction mode (PgBouncer) a connection is a server connection only
    // for one transaction: the limits go in each transaction, not in startup parameters, which
    // PgBouncer refuses; straight to PostgreSQL, every connection starts with them.
    const pooled = directUrl !== options.databaseUrl;
    await migrateDirect(directUrl);
    // A request waits at most 3 s for a connection: while the server is down it gets a 503
    // (decision 112), never a hang.
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolMax ?? 10,
      connectionTimeoutMillis: 3_000,
      ...(pooled ? {} : { options: startupOptions(timeouts) }),
    });
    // An idle client whose server connection dies (restart, dropped test database) must not crash
    // the process; the pool discards it and the next query opens a fresh connection.
    pool.on('error', () => undefined);
    // A connection that dies while checked out (between two statements of a transaction) would
    // otherwise raise an unhandled 'error' event; its next query fails and the pool drops it.
    pool.on('connect', (client) => client.on('error', () => undefined));
    const db: Database = attributed(drizzlePg(pool, { schema }), pooled ? { timeouts } : {});
    // LISTEN holds a session: one connection of its own, never through the pooler.
    const notifications = createPgNotifications(directUrl, { options: startupOptions(timeouts) });
    return {
      db,
      kind: 'postgres',
      pooled,
      poolStats: () => ({
        total: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
        max: pool.options.max,
      }),
      listen: (channel, handler) => notifications.listen(channel, handler),
      async close() {
        await notifications.close();
        await pool.end();
      },
    };
  }
  const { PGlite, drizzlePglite, pgliteOptions } = await loadPglite();
  if (!options.dataDir) {
    const client = await PGlite.create(pgliteOptions);
    const db: Database = attributed(drizzlePglite(client, { schema }));
    await migrate(db);
    return { db, kind: 'pglite', listen: pgliteListen(client), close: () => client.close() };
  }
  const dir = path.resolve(options.dataDir, 'pglite');
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const unlock = await lockDataDir(dir, { onLost: options.onLockLost });
  try {
    const client = await PGlite.create(dir, pgliteOptions);
    const db: Database = attributed(drizzlePglite(client, { schema }));
    await migrate(db);
    // PGlite writes its initial files 0666 and its relation caches 0644 whatever the umask; the
    // files PostgreSQL itself creates later are 0600 (decision 157).
    await tightenTree(dir);
    return {
      db,
      kind: 'pglite',
      listen: pgliteListen(client),
      async close() {
        await client.close();
        await unlock();
      },
    };
  } catch (error) {
    await unlock();
    throw error;
  }
}
