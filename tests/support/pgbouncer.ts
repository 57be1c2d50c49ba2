import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort } from './free-port.ts';

/** Debian's package puts it here (`apt-get install pgbouncer`). */
export const PGBOUNCER_BINARY = '/usr/sbin/pgbouncer';

const template = fileURLToPath(
  new URL('../../deploy/pgbouncer/pgbouncer.ini.template', import.meta.url),
);

/** One row of PgBouncer's `SHOW POOLS` (the counts we read). */
export interface PgBouncerPool {
  database: string;
  user: string;
  cl_active: number;
  cl_waiting: number;
  sv_active: number;
  sv_idle: number;
  sv_used: number;
  sv_login: number;
  pool_mode: string;
}

export interface PgBouncer {
  port: number;
  /** `upstream` with PgBouncer's host and port instead: what DATABASE_URL is set to. */
  url: string;
  /** The same for another database on the upstream server. */
  urlFor(database: string): string;
  /** PgBouncer's admin console (`SHOW POOLS`, `SHOW STATS`…). */
  adminUrl: string;
  /** `SHOW POOLS`, numbers as numbers. */
  pools(): Promise<PgBouncerPool[]>;
  /** Everything it logged so far. */
  log(): Promise<string>;
  stop(): Promise<void>;
}

export interface StartPgBouncerOptions {
  /** The PostgreSQL URL PgBouncer stands in front of (user, host, port, database). */
  upstream: string;
  /** Server connections for all clients together (default_pool_size and max_db_connections). */
  poolSize?: number;
  /** Client connections it accepts (every instance's DATABASE_POOL_MAX together), default 200. */
  maxClientConn?: number;
  /** Its port (default: a free one). */
  port?: number;
  /** The time limits its server connections start with (as the app's DATABASE_* variables). */
  statementTimeoutMs?: number;
  idleInTransactionTimeoutMs?: number;
  /** Where its config, auth file and log go (default: a new temporary directory, removed on stop). */
  dir?: string;
}

/** Renders deploy/pgbouncer/pgbouncer.ini.template as the deploy kit's entrypoint does (envsubst). */
export async function renderPgBouncerConfig(values: Record<string, string>): Promise<string> {
  const text = await readFile(template, 'utf8');
  return text.replace(/\$\{([A-Z_]+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** The uid and gid of the `postgres` user: PgBouncer refuses to run as root. */
function postgresUser(): { uid: number; gid: number } {
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

/**
 * Debian's PgBouncer in transaction mode in front of `upstream`, with the deploy kit's config
 * (deploy/pgbouncer/pgbouncer.ini.template), trusting the upstream's user on 127.0.0.1. Run as
 * root (CI), it runs as `postgres`. Used by the deploy suite and `bench:scale`.
 */
export async function startPgBouncer(options: StartPgBouncerOptions): Promise<PgBouncer> {
  if (!existsSync(PGBOUNCER_BINARY)) {
    throw new Error(`${PGBOUNCER_BINARY} is missing: apt-get install pgbouncer`);
  }
  const upstream = new URL(options.upstream);
  const user = decodeURIComponent(upstream.username || 'postgres');
  const ownDir = !options.dir;
  const dir = options.dir ?? (await mkdtemp(path.join(tmpdir(), 'orgsmith-pgbouncer-')));
  await mkdir(dir, { recursive: true });
  const port = options.port ?? (await freePort());
  const poolSize = options.poolSize ?? 20;
  const authFile = path.join(dir, 'userlist.txt');
  await writeFile(authFile, `"${user}" ""\n`);
  const config = await renderPgBouncerConfig({
    PGBOUNCER_UPSTREAM_HOST: upstream.hostname,
    PGBOUNCER_UPSTREAM_PORT: upstream.port || '5432',
    PGBOUNCER_LISTEN_ADDR: '127.0.0.1',
    PGBOUNCER_LISTEN_PORT: String(port),
    PGBOUNCER_AUTH_TYPE: 'trust',
    PGBOUNCER_AUTH_FILE: authFile,
    PGBOUNCER_ADMIN_USERS: user,
    PGBOUNCER_POOL_SIZE: String(poolSize),
    PGBOUNCER_MAX_CLIENT_CONN: String(options.maxClientConn ?? 200),
    DATABASE_STATEMENT_TIMEOUT_MS: String(options.statementTimeoutMs ?? 30_000),
    DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: String(options.idleInTransactionTimeoutMs ?? 60_000),
    PGBOUNCER_LOGFILE: path.join(dir, 'pgbouncer.log'),
    PGBOUNCER_PIDFILE: path.join(dir, 'pgbouncer.pid'),
  });
  const configFile = path.join(dir, 'pgbouncer.ini');
  await writeFile(configFile, config);
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? postgresUser() : undefined;
  if (owner) {
    await chmod(dir, 0o755);
    for (const file of [dir, authFile, configFile]) await chown(file, owner.uid, owner.gid);
  }
  const child: ChildProcess = spawn(PGBOUNCER_BINARY, [configFile], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(owner ? { uid: owner.uid, gid: owner.gid } : {}),
  });
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  const exited = once(child, 'exit');
  const withHostPort = (database: string) => {
    const url = new URL(options.upstream);
    url.hostname = '127.0.0.1';
    url.port = String(port);
    url.pathname = `/${database}`;
    return url.toString();
  };
  const adminUrl = withHostPort('pgbouncer');
  const log = () => readFile(path.join(dir, 'pgbouncer.log'), 'utf8').catch(() => '');
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`pgbouncer exited: ${output.join('')}${await log()}`);
    }
    const probe = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 1000 });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      await probe.query('SHOW VERSION');
      await probe.end();
      break;
    } catch {
      await probe.end().catch(() => undefined);
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`pgbouncer not up within 10 s: ${output.join('')}${await log()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    port,
    url: withHostPort(upstream.pathname.replace(/^\//, '') || user),
    urlFor: withHostPort,
    adminUrl,
    async pools() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        // The admin console speaks the simple protocol only: a query without parameters.
        const { rows } = await client.query<Record<string, string>>('SHOW POOLS');
        return rows.map((row) => ({
          database: String(row.database),
          user: String(row.user),
          cl_active: Number(row.cl_active),
          cl_waiting: Number(row.cl_waiting),
          sv_active: Number(row.sv_active),
          sv_idle: Number(row.sv_idle),
          sv_used: Number(row.sv_used),
          sv_login: Number(row.sv_login),
          pool_mode: String(row.pool_mode),
        }));
      } finally {
        await client.end();
      }
    },
    log,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
      if (ownDir) await rm(dir, { recursive: true, force: true });
    },
  };
}
