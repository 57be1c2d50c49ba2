import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  SERVER_ENTRY,
  SERVER_ENVIRONMENT,
  SERVER_NODE_FLAGS,
} from '#server/platform/node-flags.ts';
import { seedEmbeddedDatabase } from '#tests/support/databases.ts';
import { freePort } from '#tests/support/free-port.ts';

/**
 * The production server of one Playwright worker: the build started exactly as `npm run serve`
 * does, on a free port and a throwaway data directory (its own embedded database), sending its
 * e-mails to `smtpUrl` (the worker's SMTP sink). Each worker has its own, so specs in different
 * workers never share data, rate-limit counters or mail (decision 170).
 */
export interface E2eServer {
  baseURL: string;
  port: number;
  /** The operator console's own listener (decision 226): `http://localhost:<its port>`. */
  consoleURL: string;
  dataDir: string;
  stop(): Promise<void>;
}

export async function startE2eServer(options: {
  smtpUrl: string;
  /** The worker's VIES fake: no e2e server asks the real VIES (decision 210). */
  viesUrl: string;
  /** `production`: invoice orders wait for approval as a deployment's defaults say. */
  invoiceApproval?: 'production';
}): Promise<E2eServer> {
  const port = await freePort();
  const baseURL = `http://localhost:${port}`;
  const consolePort = await freePort();
  const consoleURL = `http://localhost:${consolePort}`;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-e2e-'));
  // A copy of the migrated embedded database instead of initdb and every migration (decision 201).
  await seedEmbeddedDatabase(dataDir);
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER_ENTRY], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      ...SERVER_ENVIRONMENT,
      PORT: String(port),
      CONSOLE_PORT: String(consolePort),
      CONSOLE_ORIGIN: consoleURL,
      DATA_DIR: dataDir,
      PUBLIC_BASE_URL: baseURL,
      DATABASE_URL: '',
      SMTP_URL: options.smtpUrl,
      VIES_URL: options.viesUrl,
      // Invoice orders go through at once, as the flows these specs drive expect (decision 230);
      // invoice-approval.spec.ts starts its own server with the production defaults.
      INVOICE_APPROVAL_FIRST_ORDER: options.invoiceApproval === 'production' ? 'review' : 'trust',
      INVOICE_APPROVAL_ABOVE: options.invoiceApproval === 'production' ? '' : '100000000',
    },
  });
  // Should the worker end without its fixtures' teardown, the server does not outlive it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const stop = async () => {
    process.off('exit', killOnExit);
    await stopProcess(child);
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(child, `${baseURL}/healthz`, 60_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseURL, port, consoleURL, dataDir, stop };
}

async function waitForHealth(child: ChildProcess, url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the e2e server stopped before it answered ${url} (exit ${child.exitCode})`);
    }
    const status = await fetch(url).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the e2e server did not answer ${url} within ${timeoutMs} ms`);
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
