import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import pg from 'pg';
import {
  SERVER_ENTRY,
  SERVER_ENVIRONMENT,
  SERVER_NODE_FLAGS,
} from '#server/platform/node-flags.ts';
import { createScratchDatabase, seedEmbeddedDatabase } from '#tests/support/databases.ts';
import { freePort } from '#tests/support/free-port.ts';

/** One server process (`npm run serve`'s bundle, flags and environment), as an operator runs it. */
export interface Instance {
  port: number;
  url: string;
  process: ChildProcess;
  /** Everything it logged (JSON lines), for a failing test's message. */
  log: string[];
  /** kill -9: no shutdown, no goodbye. */
  kill(): Promise<void>;
  /** SIGTERM, then waits for the exit code. */
  stop(): Promise<number | null>;
}

/** How long a SIGTERM may take before the instance is killed and the test fails. */
const STOP_TIMEOUT_MS = 60_000;

export async function startInstance(options: {
  port: number;
  env: Record<string, string>;
  timeoutMs?: number;
  /** The app's directory (default: this checkout); the deploy test runs a pruned copy. */
  cwd?: string;
  /** The working directory it is started in (default: the app's); the entry is found either way. */
  workingDir?: string;
  /**
   * On the embedded database, an existing DATA_DIR without one gets a copy of the migrated
   * template (`template`, the default, decision 201); `initdb` lets the server make it, as a
   * first start on a new machine does.
   */
  embeddedDatabase?: 'template' | 'initdb';
  /** A descriptor for its standard output (default: a pipe this process reads into `log`). */
  stdout?: number;
}): Promise<Instance> {
  const { port } = options;
  const dataDir = options.env.DATA_DIR ?? process.env.DATA_DIR;
  const databaseUrl = options.env.DATABASE_URL ?? process.env.DATABASE_URL;
  if (dataDir && !databaseUrl && (options.embeddedDatabase ?? 'template') === 'template') {
    await seedEmbeddedDatabase(
      path.resolve(options.workingDir ?? options.cwd ?? process.cwd(), dataDir),
    );
  }
  const appDir = options.cwd ?? process.cwd();
  const child = spawn(
    process.execPath,
    [...SERVER_NODE_FLAGS, path.resolve(appDir, SERVER_ENTRY)],
    {
      cwd: options.workingDir ?? appDir,
      env: {
        ...process.env,
        ...SERVER_ENVIRONMENT,
        NODE_ENV: 'production',
        LOG_LEVEL: 'info',
        PORT: String(port),
        CONSOLE_PORT: String(await freePort()),
        PUBLIC_BASE_URL: `http://localhost:${port}`,
        SECRET_KEY: 'fault-test-secret-key-0123456789abcdef',
        ...options.env,
      },
      stdio: ['ignore', options.stdout ?? 'pipe', 'pipe'],
    },
  );
  const log: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => log.push(chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => log.push(chunk.toString('utf8')));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`instance exited early:\n${log.join('')}`);
    try {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`instance not up within the time limit:\n${log.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const exited = once(child, 'exit');
  return {
    port,
    url,
    process: child,
    log,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      // The server's own shutdown ends in seconds; one that hangs fails here with its log.
      let hung = false;
      let hangState = '';
      const timer = setTimeout(() => {
        hung = true;
        // What the process was doing when given up on, for the next reader of this failure.
        hangState = processState(child.pid);
        child.kill('SIGKILL');
      }, STOP_TIMEOUT_MS);
      const [code] = (await exited) as [number | null];
      clearTimeout(timer);
      if (hung) {
        throw new Error(
          `instance did not stop within ${STOP_TIMEOUT_MS} ms of SIGTERM (${hangState}):\n${log.join('').slice(-4000)}`,
        );
      }
      return code;
    },
  };
}

/**
 * The state and kernel wait channel of each thread of `pid` (Linux /proc), e.g.
 * `16301 node S pipe_write`: where a process that will not exit is stuck.
 */
function processState(pid: number | undefined): string {
  if (pid === undefined) return 'no pid';
  try {
    return readdirSync(`/proc/${pid}/task`)
      .map((tid) => {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? '?';
        const wchan = readFileSync(`/proc/${pid}/task/${tid}/wchan`, 'utf8');
        return `${tid} ${name} ${state} ${wchan || '-'}`;
      })
      .join('; ');
  } catch (error) {
    return `state unreadable: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** A fresh PostgreSQL database for one test; `drop()` removes it. */
export function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  return createScratchDatabase('orgsmith_faults');
}

/** Runs a query against a database URL on a short-lived connection. */
export async function queryPostgres<T>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}
