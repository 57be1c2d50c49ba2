import { chmod, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInstance, type Instance } from '#tests/faults/support/instance.ts';
import { NOBODY } from '#tests/support/another-user.ts';
import { freePort } from '#tests/support/free-port.ts';
import { startAndExit } from './support/start-and-exit.ts';

/**
 * Issue 39, item 6 (decision 217): `node build/service/main.js` worked only from the project
 * folder; a typo such as `SMTP_ULR` started silently and wrote licence e-mails to disk on a public
 * origin with `/readyz` green; a data folder of another user ended in a 17-line stack trace; and
 * `PUBLIC_BASE_URL=localhost:3000` was answered with a message about Stripe keys. Each start here
 * runs the build from a working directory that is not the project's.
 */
let elsewhere: string;
beforeAll(async () => {
  elsewhere = await mkdtemp(path.join(tmpdir(), 'orgsmith-elsewhere-'));
  await chmod(elsewhere, 0o755);
});
afterAll(async () => {
  await rm(elsewhere, { recursive: true, force: true });
});

describe('the built server started from another working directory', () => {
  let instance: Instance;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-elsewhere-data-'));
    instance = await startInstance({
      timeoutMs: 120_000,
      port: await freePort(),
      workingDir: elsewhere,
      // A slip of LOG_LEVEL on a loopback origin: named in a warning, not refused.
      env: { DATA_DIR: dataDir, LOG_LEVLE: 'debug', LOG_LEVEL: 'warn' },
    });
  });
  afterAll(async () => {
    await instance?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('serves its pages, their assets and readiness, and writes nothing where it was started', async () => {
    const home = await fetch(`${instance.url}/`);
    expect(home.status).toBe(200);
    const stylesheet = /href="(\/assets\/[^"]+\.css)"/.exec(await home.text())?.[1];
    expect(stylesheet).toBeDefined();
    expect((await fetch(`${instance.url}${stylesheet}`)).status).toBe(200);
    expect((await fetch(`${instance.url}/readyz`)).status).toBe(200);
    expect(await readdir(elsewhere)).toEqual([]);
  });

  it('names the unknown variable and what it likely means in one warning line', () => {
    const warnings = instance.log
      .join('')
      .split('\n')
      .filter((line) => line.includes('LOG_LEVLE'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('ignored unknown variable LOG_LEVLE (did you mean LOG_LEVEL?)');
  });
});

describe('a refused start: one line on stderr naming the variable, exit code 1', () => {
  const publicSite = { PUBLIC_BASE_URL: 'https://orgsmith.example', PAYMENT_PROVIDER: 'local' };

  /** Starts the build from elsewhere with `env` and returns its only line of output. */
  async function refusal(env: Record<string, string>, options: { uid?: number } = {}) {
    // A refusal exits by itself; the limit only ends a start that was not refused.
    const { code, output, stderr } = await startAndExit(env, {
      ...options,
      workingDir: elsewhere,
      timeoutMs: 60_000,
    });
    expect(code, output).toBe(1);
    expect(output).toBe(stderr);
    const lines = stderr.split('\n').filter((line) => line !== '');
    expect(lines, stderr).toHaveLength(1);
    expect(lines[0]).not.toMatch(/^\s+at /);
    return lines[0] ?? '';
  }

  it('PUBLIC_BASE_URL without a scheme, before anything is said about payments', async () => {
    const line = await refusal({ PUBLIC_BASE_URL: 'localhost:3000' });
    expect(line).toContain('PUBLIC_BASE_URL: must be an http:// or https:// URL');
    expect(line).not.toContain('STRIPE');
  });

  it('a slip of a variable name on a public origin', async () => {
    const line = await refusal({ ...publicSite, SMTP_ULR: 'smtp://relay.example:587' });
    expect(line).toContain('unknown variable SMTP_ULR (did you mean SMTP_URL?)');
    expect(line).toContain('refused on the public origin https://orgsmith.example');
  });

  it('e-mails as files on a public origin unless MAIL_TRANSPORT=file', async () => {
    const line = await refusal(publicSite);
    expect(line).toContain('SMTP_URL: is not set');
    expect(line).toContain('MAIL_TRANSPORT=file');
  });

  it('a bad number', async () => {
    expect(await refusal({ PORT: '80a' })).toBe(
      'Invalid environment: PORT: must be a whole number from 1 to 65535',
    );
  });

  // Only root can give the server a directory of another user: skipped otherwise.
  it.runIf(process.getuid?.() === 0)('a DATA_DIR this user may not write', async () => {
    const parent = await mkdtemp(path.join(tmpdir(), 'orgsmith-not-yours-'));
    try {
      await chmod(parent, 0o755);
      const dataDir = path.join(parent, 'data');
      await mkdir(dataDir, { mode: 0o700 });
      const line = await refusal({ DATA_DIR: dataDir }, { uid: NOBODY });
      expect(line).toMatch(
        new RegExp(`^DATA_DIR ${dataDir} cannot be used \\(.*permission denied\\)`),
      );
      expect(line).toContain(`uid ${NOBODY}`);
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });
});
