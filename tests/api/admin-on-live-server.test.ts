import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { adminCommandRunner } from '#server/admin/admin-command-runner.ts';
import { runAdmin } from '#server/admin/run-admin.ts';
import { startAdminSocket } from '#server/admin/serve-admin-socket.ts';
import { createBackupTaker } from '#server/backup/take-backup.ts';
import type { AdminFiles } from '#server/platform/commands/command.ts';
import { localFiles } from '#server/platform/commands/local-files.ts';
import { adminSocketPath } from '#server/platform/data-dir/admin-socket-path.ts';
import type { DatabaseHandle } from '#server/platform/db/client.ts';
import { createLogger } from '#server/platform/logger.ts';
import { confirmationToken, confirmOrder } from '#tests/security/support/invoice-orders.ts';
import { databaseTargets } from '../support/databases.ts';
import { createTestApp, csrfHeaders, type TestApp } from '../support/test-app.ts';
import { postJson } from './account-support.ts';
import { freshIp } from './checkout-support.ts';

/**
 * Issue 28, item 1 (decision 189): while a server has the embedded database open, every admin
 * command runs in it through the admin socket, with the output, files and exit code it has when
 * run on the database directly.
 */
const pglite = databaseTargets.find((target) => target.name === 'pglite');
if (!pglite) throw new Error('PGlite target missing');

const repoRoot = path.resolve(import.meta.dirname, '../..');

interface Ran {
  code: number;
  out: string;
  err: string;
}

/** Sends raw bytes to the socket and returns every line the server sends before closing. */
function rawRequest(socketPath: string, bytes: string): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(socketPath);
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(bytes));
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('close', () =>
      resolve(
        answer
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => JSON.parse(line) as unknown),
      ),
    );
    socket.on('error', reject);
  });
}

/** A second invoice order, confirmed: its invoice number. */
async function orderInvoice(t: TestApp, billingEmail: string): Promise<string> {
  const response = await t.app.request('/account/v1/checkout/invoice', {
    method: 'POST',
    headers: { ...csrfHeaders(), 'Content-Type': 'application/json', 'X-Forwarded-For': freshIp() },
    body: JSON.stringify({
      edition: 'Enterprise',
      quantity: 25,
      billingPeriod: 'yearly',
      billingCurrency: 'EUR',
      companyName: 'Live Admin GmbH',
      billingEmail,
      addressLine: 'Hauptstraße 1',
      postalCode: '10115',
      city: 'Berlin',
      country: 'de',
    }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  const confirmed = await confirmOrder(t, await confirmationToken(t, billingEmail));
  expect(confirmed.status).toBe(200);
  return z.object({ invoiceNumber: z.string() }).parse(await confirmed.json()).invoiceNumber;
}

describe('admin commands while a server runs on the embedded database', () => {
  let t: TestApp;
  let dataDir: string;
  let cwd: string;
  let socket: ReturnType<typeof startAdminSocket>;
  /** What the CLI wrote for the server, to show the server wrote nothing itself. */
  const written: string[] = [];
  const recordingFiles: AdminFiles = {
    read: (file, maxBytes) => localFiles.read(file, maxBytes),
    async write(file, bytes) {
      written.push(file);
      await localFiles.write(file, bytes);
    },
  };

  /** `npm run admin --` with no database given: the server is on DATA_DIR, so it runs there. */
  async function throughServer(...argv: string[]): Promise<Ran> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdmin(argv, {
      io: { out: (line) => out.push(line), err: (line) => err.push(line) },
      // Nothing of the server's environment but where its data is: it runs with its own.
      environment: { DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '1' },
      files: recordingFiles,
      cwd,
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  /** The same command on the database directly, as on PostgreSQL or with the server stopped. */
  async function direct(...argv: string[]): Promise<Ran> {
    const out: string[] = [];
    const err: string[] = [];
    const handle: DatabaseHandle = { ...t.deps.database, close: async () => undefined };
    const code = await runAdmin(argv, {
      io: { out: (line) => out.push(line), err: (line) => err.push(line) },
      env: t.deps.env,
      openDatabase: async () => handle,
      now: t.deps.clock,
      cwd,
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  beforeAll(async () => {
    t = await createTestApp(pglite, { now: new Date('2026-03-02T10:00:00Z') });
    dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-live-admin-'));
    await mkdir(path.join(dataDir, 'pglite'));
    cwd = await mkdtemp(path.join(tmpdir(), 'orgsmith-live-admin-cwd-'));
    socket = startAdminSocket({
      dataDir,
      taker: createBackupTaker({
        db: t.deps.database.db,
        kind: 'pglite',
        clock: t.deps.clock,
        dataDir,
      }),
      logger: createLogger('silent'),
      runCommand: adminCommandRunner(t.deps),
    });
    expect(await socket.ready).toBe(true);
    for (const companyName of ['First GmbH', 'Second Ltd']) {
      const quote = await postJson(t, '/account/v1/quotes', {
        emailAddress: 'buyer@example.com',
        billingPeriod: 'yearly',
        billingCurrency: 'EUR',
        companyName,
        edition: 'Pro',
        quantity: 7,
      });
      expect(quote.status).toBe(201);
    }
  }, 120_000);
  afterAll(async () => {
    await socket.stop();
    await rm(dataDir, { recursive: true, force: true });
    await rm(cwd, { recursive: true, force: true });
    await t.close();
  });

  it('lists quotes through the server exactly as on the database', async () => {
    const live = await throughServer('quotes', 'list');
    expect(live.code).toBe(0);
    expect(live.out).toMatch(/^NUMBER\s+DATE/);
    expect(live.out).toContain('Second Ltd');
    expect(live).toEqual(await direct('quotes', 'list'));
  });

  it('fails the same way, with the same message and exit code', async () => {
    for (const argv of [
      ['quotes', 'show', 'Q-2099-0001'],
      ['quotes', 'show', 'not-a-number'],
      ['invoices', 'mark-paid', 'LOCAL-NOPE'],
      ['licences', 'revoke', 'nobody@example.com'],
      ['quotes', 'list', '--nope'],
      ['quotes', 'frobnicate'],
    ]) {
      const live = await throughServer(...argv);
      expect(live.code, argv.join(' ')).not.toBe(0);
      expect(live.err, argv.join(' ')).not.toBe('');
      expect(live, argv.join(' ')).toEqual(await direct(...argv));
    }
    expect((await throughServer('quotes', 'show', 'Q-2099-0001')).err).toBe(
      'No quote Q-2099-0001.',
    );
  });

  it('marks an invoice paid through the server, and refuses a second time as directly', async () => {
    const first = await orderInvoice(t, 'ap-one@live-admin.test');
    const second = await orderInvoice(t, 'ap-two@live-admin.test');
    const live = await throughServer('invoices', 'mark-paid', first);
    expect(live).toEqual({ code: 0, out: `Invoice ${first} is paid.`, err: '' });
    const onDatabase = await direct('invoices', 'mark-paid', second);
    expect(onDatabase).toEqual({ code: 0, out: `Invoice ${second} is paid.`, err: '' });
    const again = await throughServer('invoices', 'mark-paid', first);
    expect(again.code).toBe(1);
    expect(again).toEqual(await direct('invoices', 'mark-paid', first));
    expect((await throughServer('invoices', 'list')).out).toEqual(
      (await direct('invoices', 'list')).out,
    );
  });

  it('writes the PDF as the command line, in its directory, with the same bytes', async () => {
    const number = 'Q-2026-0001';
    const live = await throughServer('quotes', 'show', number, '--pdf', 'live.pdf');
    const liveFile = path.join(cwd, 'live.pdf');
    expect(live.code).toBe(0);
    expect(live.err).toBe(`PDF written to ${liveFile}`);
    expect(written).toEqual([liveFile]);
    const onDatabase = await direct('quotes', 'show', number, '--pdf', 'direct.pdf');
    expect(onDatabase.out).toBe(live.out);
    const liveBytes = await readFile(liveFile);
    expect(liveBytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(liveBytes.length).toBe((await readFile(path.join(cwd, 'direct.pdf'))).length);
    // A file the command cannot write: the same error either way, exit code 1.
    const failed = await throughServer('quotes', 'show', number, '--pdf', 'missing/x.pdf');
    expect(failed.code).toBe(1);
    expect(failed).toEqual(await direct('quotes', 'show', number, '--pdf', 'missing/x.pdf'));
  });

  it('reads the manifest the command line names, from its directory', async () => {
    const manifest = await readFile(
      path.join(repoRoot, 'docs/release-manifest.example.json'),
      'utf8',
    );
    await writeFile(path.join(cwd, 'manifest.json'), manifest);
    const live = await throughServer('releases', 'publish', 'manifest.json', '--dry-run');
    expect(live.code).toBe(0);
    expect(live).toEqual(await direct('releases', 'publish', 'manifest.json', '--dry-run'));
    const missing = await throughServer('releases', 'publish', 'no-such.json');
    expect(missing.code).toBe(1);
    expect(missing.err).toContain(`Cannot read ${path.join(cwd, 'no-such.json')}`);
    expect(missing).toEqual(await direct('releases', 'publish', 'no-such.json'));
  });

  it('says plainly that restore needs the service stopped, and changes nothing', async () => {
    const file = path.join(cwd, 'some.jsonl.gz');
    await writeFile(file, 'not read');
    const refused = await throughServer('restore', file, '--replace');
    expect(refused.code).toBe(1);
    expect(refused.out).toBe('');
    expect(refused.err).toBe(
      [
        `restore needs the service stopped: a server is running on the embedded database in ${dataDir}.`,
        'Stop that server, run `npm run admin -- restore` again, then start the server.',
      ].join('\n'),
    );
    expect((await throughServer('quotes', 'list')).out).toContain('Second Ltd');
  });

  it('still takes backups through the same socket', async () => {
    const backup = await throughServer('backup', 'live.jsonl.gz');
    expect(backup.code).toBe(0);
    expect(backup.out).toMatch(/written by the running server\.$/);
    expect((await stat(path.join(cwd, 'live.jsonl.gz'))).mode & 0o777).toBe(0o600);
  });

  it('refuses unknown commands, commands that do not run there and malformed requests', async () => {
    const socketPath = adminSocketPath(dataDir);
    const run = (argv: unknown, at = cwd) =>
      rawRequest(socketPath, `${JSON.stringify({ argv, cwd: at })}\n`);
    expect(await run(['widgets'])).toEqual([
      {
        type: 'err',
        line: 'Unknown command "widgets". Run `npm run admin -- --help` for the list.',
      },
      { type: 'exit', code: 2 },
    ]);
    for (const argv of [
      ['restore', '/tmp/x.jsonl.gz'],
      ['backup', '/tmp/x.jsonl.gz'],
    ]) {
      expect(await run(argv)).toEqual([
        { type: 'err', line: `"${argv[0]}" does not run through the admin socket.` },
        { type: 'exit', code: 2 },
      ]);
    }
    const malformed = {
      type: 'err',
      line: 'The request is not {"argv":["<command>",...],"cwd":"<absolute path>"}.',
    };
    for (const [argv, at] of [
      [[], cwd],
      [['quotes', 'list'], 'relative/dir'],
      ['quotes list', cwd],
      [['quotes', 'list\0'], cwd],
    ] as const) {
      expect(await run(argv, at)).toEqual([malformed, { type: 'exit', code: 2 }]);
    }
    expect(
      await rawRequest(socketPath, `${JSON.stringify({ argv: ['x'], cwd, extra: 1 })}\n`),
    ).toEqual([malformed, { type: 'exit', code: 2 }]);
    expect(await rawRequest(socketPath, `{"argv":["${'a'.repeat(5000)}"]}\n`)).toEqual([
      { ok: false, error: 'The request is too long.' },
    ]);
  });

  it('stops reading from a command line that sends what it was not asked for', async () => {
    const lines = await rawRequest(
      adminSocketPath(dataDir),
      `${JSON.stringify({ argv: ['quotes', 'show', 'Q-2026-0001', '--pdf', 'x.pdf'], cwd })}\n{"type":"written","id":7}\n`,
    );
    // The PDF's bytes were asked for, and a reply for another request came: the server hangs up.
    expect(lines.at(-1)).not.toEqual({ type: 'exit', code: 0 });
    await expect(stat(path.join(cwd, 'x.pdf'))).rejects.toThrow();
    expect((await throughServer('quotes', 'list')).code).toBe(0);
  });
});
