import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  SERVER_ENTRY,
  SERVER_ENVIRONMENT,
  SERVER_NODE_FLAGS,
} from '#server/platform/node-flags.ts';

/** A port nobody listens on right now, chosen by the operating system. */
export async function freePort(): Promise<number> {
  // The system may offer a port again once its probe closed, before the server it went to
  // listens, when servers start side by side: never hand out the same one twice.
  for (;;) {
    const port = await probePort();
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
}

const handedOut = new Set<number>();

function probePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

/** `npm run build`, exactly as a user builds before `npm run serve`. */
export function buildSite(): void {
  console.log('Building the production bundle (npm run build)…');
  const result = spawnSync('npm', ['run', 'build', '--silent'], { encoding: 'utf8' });
  if (result.status !== 0) {
    process.stderr.write(`${result.stdout}${result.stderr}`);
    throw new Error(`npm run build failed (${result.status})`);
  }
}

export async function waitForOk(url: string, timeoutMs: number, pollMs = 250): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** Servers still running: stopped at once if the bench exits or is interrupted (Ctrl-C). */
const stillRunning = new Set<() => void>();
let exitHooked = false;

/**
 * Runs `stopNow` (synchronous: kill, remove) if the bench exits or is interrupted before the
 * returned function is called.
 */
export function stopOnExit(stopNow: () => void): () => void {
  if (!exitHooked) {
    exitHooked = true;
    process.once('exit', () => {
      for (const stop of stillRunning) stop();
    });
    // Without a handler a signal ends the bench without 'exit': its servers would live on.
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => process.exit(130));
    }
  }
  stillRunning.add(stopNow);
  return () => stillRunning.delete(stopNow);
}

export interface RunningServer {
  baseUrl: string;
  /** The server's process id, to read its memory from /proc. */
  pid: number | undefined;
  /** From starting the process to the first answer of the path it was waited for. */
  startMs: number;
  stop(): Promise<void>;
}

export interface ProductionServerOptions {
  /** The server's LOG_LEVEL (default `warn`; `info` is what `npm start` runs with). */
  logLevel?: string;
  /** Pins the server to this CPU core with taskset. */
  core?: number | undefined;
  /** More environment (e.g. `DATABASE_URL`; the default is a throwaway embedded database). */
  env?: Record<string, string>;
  /** Flags for node before the script (default: the production flags, `SERVER_NODE_FLAGS`). */
  nodeFlags?: readonly string[];
  /** The path whose 200 means started (default `/healthz`), polled every 20 ms. */
  readyPath?: string;
}

/**
 * Starts the production server (the bundle with the production node flags and environment) on a free port
 * with a throwaway data directory.
 */
export async function startProductionServer(
  options: ProductionServerOptions = {},
): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'orgsmith-bench-'));
  const baseUrl = `http://localhost:${port}`;
  const node = [process.execPath, ...(options.nodeFlags ?? SERVER_NODE_FLAGS), SERVER_ENTRY];
  const [command, args] =
    options.core === undefined
      ? [process.execPath, node.slice(1)]
      : ['taskset', ['-c', String(options.core), ...node]];
  const started = performance.now();
  const child: ChildProcess = spawn(command, args, {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      ...SERVER_ENVIRONMENT,
      NODE_ENV: 'production',
      PORT: String(port),
      CONSOLE_PORT: String(await freePort()),
      DATA_DIR: dataDir,
      PUBLIC_BASE_URL: baseUrl,
      DATABASE_URL: '',
      LOG_LEVEL: options.logLevel ?? 'warn',
      ...options.env,
    },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const forget = stopOnExit(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    forget();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForOk(`${baseUrl}${options.readyPath ?? '/healthz'}`, 120_000, 20);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, pid: child.pid, startMs: performance.now() - started, stop };
}
