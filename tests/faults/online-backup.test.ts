import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { access, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { adminSocketPath } from '#server/platform/data-dir/admin-socket-path.ts';
import { ADMIN_ENTRY } from '#server/platform/node-flags.ts';
import { siteConfig } from '#shared/site-config.ts';
import { startSmtpSink, type SmtpSink } from '#tests/support/smtp-sink.ts';
import { freePort } from '#tests/support/free-port.ts';
import { createPostgresDatabase, startInstance, type Instance } from './support/instance.ts';

/**
 * Issue 18, item 1 (decision 130), on real server processes: a trial is issued, backed up with
 * `npm run admin -- backup` while the server serves it (embedded database and PostgreSQL),
 * restored into a brand-new database without --replace, and its key validates on a server
 * started there. Prints the time and size of each backup.
 */
const KEY = /ORGS(?:-[0-9A-Z]{4}){7}/;
const CSRF = 'online-backup-csrf-token';
/** PGlite's first start creates its database: slow on a busy machine. */
const START_TIMEOUT_MS = 120_000;
/** The longest an admin command of these few rows may take on a loaded machine. */
const ADMIN_TIMEOUT_MS = 60_000;
const modeOf = async (file: string) => (await stat(file)).mode & 0o777;

/** `npm run admin -- <argv>` as an operator runs it from `cwd` (npm passes it as INIT_CWD). */
async function admin(argv: string[], env: Record<string, string>, cwd: string) {
  const child = spawn(process.execPath, [ADMIN_ENTRY, ...argv], {
    env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'silent', ...env, INIT_CWD: cwd },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  // A command that hangs fails here, naming itself and what it printed, not the whole test later.
  let hung = false;
  const timer = setTimeout(() => {
    hung = true;
    child.kill('SIGKILL');
  }, ADMIN_TIMEOUT_MS);
  await once(child, 'exit');
  clearTimeout(timer);
  if (hung) {
    throw new Error(
      `admin ${argv.join(' ')} did not end within ${ADMIN_TIMEOUT_MS} ms:\n${out}\n${err}`,
    );
  }
  return { code: child.exitCode, out: out.trim(), err: err.trim() };
}

async function validate(instance: Instance, licenseKey: string): Promise<unknown> {
  const res = await fetch(`${instance.url}/account/v1/licenses/validate`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ licenseKey, productId: siteConfig.productId }),
    signal: AbortSignal.timeout(30_000),
  });
  expect(res.status).toBe(200);
  return res.json();
}

async function issueTrial(instance: Instance, sink: SmtpSink, emailAddress: string) {
  const query = new URLSearchParams({ emailAddress, productId: siteConfig.productId });
  const res = await fetch(`${instance.url}/account/v1/licenses/trial?${query}`, {
    method: 'POST',
    headers: { Cookie: `XSRF-TOKEN=${CSRF}`, 'X-XSRF-TOKEN': CSRF },
  });
  expect(res.status).toBe(204);
  const mail = await sink.waitForMail({ to: emailAddress, subject: /trial licence key/ }, 30_000);
  const key = KEY.exec(mail.text)?.[0];
  if (!key) throw new Error('no licence key in the trial e-mail');
  return key;
}

/** The server opens its admin socket right after start-up; wait for it, as an operator would. */
async function socketUp(dataDir: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (
      await access(adminSocketPath(dataDir)).then(
        () => true,
        () => false,
      )
    )
      return;
    if (Date.now() > deadline) throw new Error('no admin socket within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('backup while serving, restore into a fresh database', () => {
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink({ port: await freePort() });
  });
  afterAll(() => sink.close());

  for (const kind of ['pglite', 'postgres'] as const) {
    it(`on ${kind}: the trial's key validates after backup, restore without --replace and restart`, async () => {
      const dirs = {
        data: await mkdtemp(path.join(tmpdir(), 'orgsmith-online-data-')),
        out: await mkdtemp(path.join(tmpdir(), 'orgsmith-online-out-')),
        fresh: await mkdtemp(path.join(tmpdir(), 'orgsmith-online-fresh-')),
      };
      const live = kind === 'postgres' ? await createPostgresDatabase() : undefined;
      const fresh = kind === 'postgres' ? await createPostgresDatabase() : undefined;
      const envOf = (dataDir: string, url: string | undefined) => ({
        SMTP_URL: sink.url,
        DATA_DIR: dataDir,
        ...(url ? { DATABASE_URL: url } : {}),
      });
      let instance: Instance | undefined;
      try {
        const env = envOf(dirs.data, live?.url);
        instance = await startInstance({
          port: await freePort(),
          env,
          timeoutMs: START_TIMEOUT_MS,
        });
        const key = await issueTrial(instance, sink, `online-${kind}-${Date.now()}@example.com`);
        if (kind === 'pglite') await socketUp(dirs.data);

        // While it serves: a relative path lands in the operator's directory.
        const backup = await admin(['backup', 'orgsmith.jsonl.gz'], env, dirs.out);
        expect(backup.err).toBe('');
        expect(backup.code).toBe(0);
        const file = path.join(dirs.out, 'orgsmith.jsonl.gz');
        expect(backup.out).toContain(`to ${file} (`);
        if (kind === 'pglite') expect(backup.out).toMatch(/, written by the running server\.$/);
        expect(await modeOf(file)).toBe(0o600);
        expect(await validate(instance, key)).toMatchObject({ valid: true });
        console.log(`[online backup] ${kind}: ${backup.out}`);
        expect(await instance.stop()).toBe(0);
        instance = undefined;

        const freshEnv = envOf(dirs.fresh, fresh?.url);
        const restore = await admin(['restore', file], freshEnv, dirs.out);
        expect(restore.err).toBe('');
        expect(restore.code).toBe(0);
        expect(restore.out).toMatch(/^Restored \d+ rows of \d+ tables from /);

        instance = await startInstance({
          port: await freePort(),
          env: freshEnv,
          timeoutMs: START_TIMEOUT_MS,
        });
        expect(await validate(instance, key)).toMatchObject({ valid: true, code: 'VALID' });
      } finally {
        await instance?.stop();
        await live?.drop();
        await fresh?.drop();
        await Promise.all(
          Object.values(dirs).map((dir) => rm(dir, { recursive: true, force: true })),
        );
      }
    });
  }

  it('on pglite: scheduled every 2 s, keeps 2, 0600, and /readyz shows the age', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-scheduled-data-'));
    const backupDir = path.join(dataDir, 'backups');
    const instance = await startInstance({
      port: await freePort(),
      env: {
        SMTP_URL: sink.url,
        DATA_DIR: dataDir,
        BACKUP_DIR: backupDir,
        BACKUP_EVERY: '2s',
        BACKUP_KEEP: '2',
      },
      timeoutMs: START_TIMEOUT_MS,
    });
    try {
      const written = () =>
        instance.log
          .join('')
          .split('\n')
          .filter((line) => line.includes('"scheduled backup written"'));
      const deadline = Date.now() + 60_000;
      while (written().length < 4) {
        if (Date.now() > deadline) throw new Error(`too few backups:\n${instance.log.join('')}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const files = (await readdir(backupDir)).filter((name) => name.endsWith('.jsonl.gz'));
      expect(files).toHaveLength(2);
      for (const name of files) expect(await modeOf(path.join(backupDir, name))).toBe(0o600);
      const ready = await fetch(`${instance.url}/readyz`);
      expect(ready.status).toBe(200);
      const body = z
        .object({
          backup: z.object({
            newestAgeSeconds: z.number(),
            everySeconds: z.literal(2),
            overdue: z.literal(false),
          }),
        })
        .parse(await ready.json());
      expect(body.backup.newestAgeSeconds).toBeLessThanOrEqual(4);
    } finally {
      await instance.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
