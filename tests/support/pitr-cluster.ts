import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, chmod, chown, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './free-port.ts';

/** Debian's PostgreSQL 15 server binaries (postgresql-15) and pgBackRest (pgbackrest). */
const BIN = '/usr/lib/postgresql/15/bin';
const PGBACKREST = '/usr/bin/pgbackrest';
const STANZA = 'orgsmith';

/** What point-in-time recovery needs and this machine lacks (empty when it has everything). */
export const pitrMissing: readonly string[] = [
  path.join(BIN, 'initdb'),
  path.join(BIN, 'pg_ctl'),
  PGBACKREST,
].filter((file) => !existsSync(file));

/** Runs a command as `postgres` when this process is root (initdb and the server refuse root). */
function run(command: string, args: string[]): string {
  const asRoot = process.getuid?.() === 0;
  const [file, argv] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', command, ...args]]
    : [command, args];
  return execFileSync(file, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export interface PitrCluster {
  /** The cluster's `orgsmith` database (created empty; the app migrates it on first open). */
  url: string;
  query<T>(text: string, database?: string): Promise<T[]>;
  /** A full pgBackRest backup of the running cluster. */
  backup(): void;
  /** PostgreSQL's own time now, in the form recovery's `--target` takes. */
  now(): Promise<string>;
  /**
   * Stops the cluster, restores it to `target` (WAL archived up to then is replayed), starts and
   * waits until it is promoted; answers how long that took, in seconds.
   */
  restoreTo(target: string): Promise<number>;
  /** Stops the cluster and removes everything of it. */
  close(): Promise<void>;
}

/**
 * A PostgreSQL cluster of its own (initdb in a temporary directory, its own port, never the
 * system's cluster) with WAL archived by pgBackRest (`archive_command`), for point-in-time
 * recovery (decision 237): the deploy suite's test and `bench:scale` use it.
 */
export async function startPitrCluster(): Promise<PitrCluster> {
  const work = await mkdtemp(path.join(tmpdir(), 'orgsmith-pitr-'));
  const data = path.join(work, 'data');
  const config = path.join(work, 'pgbackrest.conf');
  const port = await freePort();
  let running = false;
  const pgCtl = (...args: string[]) =>
    run(path.join(BIN, 'pg_ctl'), ['-D', data, '-l', path.join(work, 'postgres.log'), ...args]);
  const pgbackrest = (...args: string[]) =>
    run(PGBACKREST, [`--config=${config}`, `--stanza=${STANZA}`, ...args]);
  const start = () => {
    pgCtl('start', '-w', '-t', '60');
    running = true;
  };
  const stop = () => {
    pgCtl('stop', '-m', 'fast', '-w');
    running = false;
  };
  async function query<T>(text: string, database = 'orgsmith'): Promise<T[]> {
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database });
    await client.connect();
    try {
      return (await client.query(text)).rows as T[];
    } finally {
      await client.end();
    }
  }
  const close = async () => {
    if (running) {
      try {
        stop();
      } catch {
        // Gone already.
      }
    }
    await rm(work, { recursive: true, force: true });
  };

  try {
    for (const dir of ['repo', 'log', 'lock', 'spool']) await mkdir(path.join(work, dir));
    await writeFile(
      config,
      [
        '[global]',
        `repo1-path=${path.join(work, 'repo')}`,
        'repo1-retention-full=1',
        `log-path=${path.join(work, 'log')}`,
        `lock-path=${path.join(work, 'lock')}`,
        `spool-path=${path.join(work, 'spool')}`,
        'log-level-console=warn',
        'log-level-file=off',
        'start-fast=y',
        'compress-type=none',
        '',
        `[${STANZA}]`,
        `pg1-path=${data}`,
        `pg1-port=${port}`,
        `pg1-socket-path=${work}`,
        'pg1-user=postgres',
        '',
      ].join('\n'),
    );
    if (process.getuid?.() === 0) {
      const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
      await chmod(work, 0o755);
      for (const entry of ['', 'repo', 'log', 'lock', 'spool', 'pgbackrest.conf']) {
        await chown(path.join(work, entry), uid, gid);
      }
    }
    run(path.join(BIN, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
    await appendFile(
      path.join(data, 'postgresql.conf'),
      [
        '',
        `port = ${port}`,
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = '${work}'`,
        'wal_level = replica',
        'archive_mode = on',
        `archive_command = '${PGBACKREST} --config=${config} --stanza=${STANZA} archive-push %p'`,
        'max_wal_senders = 3',
        'shared_buffers = 32MB',
        '',
      ].join('\n'),
    );
    start();
    await query('create database orgsmith', 'postgres');
    pgbackrest('stanza-create');
    pgbackrest('check');
  } catch (error) {
    await close();
    throw error;
  }

  return {
    url: `postgres://postgres@127.0.0.1:${port}/orgsmith`,
    query,
    backup: () => void pgbackrest('backup', '--type=full'),
    async now() {
      const [row] = await query<{ noted: string }>(
        `select to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') || '+00' as noted`,
      );
      return row?.noted ?? '';
    },
    async restoreTo(target) {
      // Switches to a new WAL segment and waits until the one holding the last write is archived.
      pgbackrest('check');
      stop();
      const started = performance.now();
      pgbackrest(
        'restore',
        '--delta',
        '--type=time',
        `--target=${target}`,
        '--target-action=promote',
      );
      start();
      // Recovery replays the archived WAL up to the target time, then promotes.
      for (const deadline = Date.now() + 120_000; ;) {
        const [row] = await query<{ recovering: boolean }>(
          'select pg_is_in_recovery() as recovering',
        ).catch(() => [{ recovering: true }]);
        if (row && !row.recovering) break;
        if (Date.now() > deadline) throw new Error('still recovering after 120 s');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return (performance.now() - started) / 1000;
    },
    close,
  };
}
