import {
  chmod,
  chown,
  lchown,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  rm,
  stat,
  symlink,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteConfig } from '#shared/site-config.ts';
import {
  createPostgresDatabase,
  startInstance,
  type Instance,
} from '#tests/faults/support/instance.ts';
import { NOBODY } from '#tests/support/another-user.ts';
import { freePort } from '#tests/support/free-port.ts';
import { startAndExit } from './support/start-and-exit.ts';

/**
 * Issue 25, row 6 (decision 157): as another local user with the default umask, 969 of the 1,102
 * files of the embedded database were world-writable and all world-readable (`strings` on the
 * WAL printed both Ed25519 private keys; SECRET_KEY is in the same store) and the `.eml` files
 * with licence keys were 0644. Now DATA_DIR and everything below it is its owner's alone, an
 * open one is closed at start, and one that cannot be closed refuses to start.
 */
const CSRF = 'data-dir-private-csrf-token';

/** Every entry of `dir` (itself included) that group or others may read, write or enter. */
async function openEntries(dir: string): Promise<string[]> {
  const open: string[] = [];
  const visit = async (entry: string) => {
    const info = await lstat(entry).catch(() => undefined);
    if (!info || info.isSymbolicLink()) return;
    if (info.mode & 0o077) open.push(`${entry} ${(info.mode & 0o777).toString(8)}`);
    if (info.isDirectory()) {
      const names = await readdir(entry).catch(() => []);
      for (const name of names) await visit(path.join(entry, name));
    }
  };
  await visit(dir);
  return open;
}

/** Every entry of `dir` opened to everyone, as an older version or a careless copy left it. */
async function openUp(dir: string): Promise<void> {
  const info = await lstat(dir);
  if (info.isSymbolicLink()) return;
  await chmod(dir, info.isDirectory() ? 0o777 : 0o666);
  if (info.isDirectory()) {
    for (const name of await readdir(dir)) await openUp(path.join(dir, name));
  }
}

async function requestTrial(instance: Instance, emailAddress: string): Promise<void> {
  const query = new URLSearchParams({ emailAddress, productId: siteConfig.productId });
  const res = await fetch(`${instance.url}/account/v1/licenses/trial?${query}`, {
    method: 'POST',
    headers: { Cookie: `XSRF-TOKEN=${CSRF}`, 'X-XSRF-TOKEN': CSRF },
  });
  expect(res.status).toBe(204);
}

/** The `.eml` files the outbox wrote, once there are `count` of them. */
async function emlFiles(dataDir: string, count: number): Promise<string[]> {
  const mail = path.join(dataDir, 'mail');
  const deadline = Date.now() + 30_000;
  for (;;) {
    const files = (await readdir(mail).catch(() => [])).filter((name) => name.endsWith('.eml'));
    if (files.length >= count) return files.map((name) => path.join(mail, name));
    if (Date.now() > deadline) throw new Error(`fewer than ${count} e-mails in ${mail}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const targets = [
  { name: 'pglite', database: async () => ({ url: '', drop: async () => undefined }) },
  { name: 'postgres', database: createPostgresDatabase },
];

describe.each(targets)('DATA_DIR on $name is its owner’s alone', (target) => {
  let parent: string;
  let dataDir: string;
  let database: { url: string; drop(): Promise<void> };
  let instance: Instance | undefined;
  const start = async () => {
    // One server at a time on this DATA_DIR, even after a failed test left its server running.
    await instance?.stop();
    instance = await startInstance({
      timeoutMs: 120_000,
      port: await freePort(),
      // The files a first start writes are this test's subject: the server makes its database.
      embeddedDatabase: 'initdb',
      env: { DATA_DIR: dataDir, DATABASE_URL: database.url, SMTP_URL: '', LOG_LEVEL: 'warn' },
    });
    return instance;
  };
  beforeAll(async () => {
    parent = await mkdtemp(path.join(tmpdir(), 'orgsmith-data-dir-'));
    // Not there yet: the server creates it, with this test's umask (022) around it.
    dataDir = path.join(parent, 'data');
    database = await target.database();
  });
  afterAll(async () => {
    await instance?.stop();
    await database?.drop();
    await rm(parent, { recursive: true, force: true });
  });

  it('after a start and a trial, no file or directory is open to group or others', async () => {
    const server = await start();
    await requestTrial(server, `private-${target.name}@example.com`);
    const [eml] = await emlFiles(dataDir, 1);
    expect(eml).toBeDefined();
    expect(await openEntries(dataDir)).toEqual([]);
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
    await server.stop();
    instance = undefined;
  });

  it('a DATA_DIR left open to everyone is closed at the next start, the database too', async () => {
    await openUp(dataDir);
    expect((await openEntries(dataDir)).length).toBeGreaterThan(2);
    const server = await start();
    expect(await openEntries(dataDir)).toEqual([]);
    // It still serves from the same files: a second trial writes a second e-mail, also private.
    await requestTrial(server, `again-${target.name}@example.com`);
    await emlFiles(dataDir, 2);
    expect(await openEntries(dataDir)).toEqual([]);
    await server.stop();
    instance = undefined;
  });
});

describe('a DATA_DIR this server cannot close', () => {
  const asRoot = process.getuid?.() === 0;
  let parent: string;
  beforeAll(async () => {
    parent = await mkdtemp(path.join(tmpdir(), 'orgsmith-data-dir-other-'));
    await chmod(parent, 0o755);
  });
  afterAll(async () => {
    await rm(parent, { recursive: true, force: true });
  });

  // Only root can give the server a directory of another user: skipped otherwise.
  it.runIf(asRoot)('refuses to start, in one line saying how to fix it', async () => {
    // Root's, open to all: `nobody` may write there but not change its mode.
    const dataDir = path.join(parent, 'data');
    await mkdir(dataDir);
    await chmod(dataDir, 0o777);
    await chown(dataDir, 0, 0);
    const { code, output } = await startAndExit({ DATA_DIR: dataDir }, { uid: NOBODY });
    expect(code).toBe(1);
    const lines = output.split('\n').filter((line) => line.includes(dataDir));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('is open to other users');
    expect(lines[0]).toContain(`chmod -R go= ${dataDir}`);
    expect(output).not.toContain('listening');
    expect(await readdir(dataDir)).toEqual([]);
  });

  it.runIf(asRoot)(
    'refuses one where another user planted `mail` while it was open, and sends them nothing',
    async () => {
      const dataDir = path.join(parent, 'planted');
      const inbox = path.join(parent, 'nobody-inbox');
      await mkdir(dataDir);
      await chmod(dataDir, 0o777);
      await mkdir(inbox);
      await chown(inbox, 65534, 65534);
      // What `nobody` could do in an open DATA_DIR: the licence e-mails would land in its inbox.
      await symlink(inbox, path.join(dataDir, 'mail'));
      await lchown(path.join(dataDir, 'mail'), 65534, 65534);
      const { code, output } = await startAndExit({ DATA_DIR: dataDir, SMTP_URL: '' });
      expect(code).toBe(1);
      const lines = output.split('\n').filter((line) => line.includes(dataDir));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`holds ${path.join(dataDir, 'mail')}`);
      expect(lines[0]).toContain('belongs to another user (uid 65534)');
      expect(await readdir(inbox)).toEqual([]);
    },
  );
});
