import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCommandRunner } from '#server/admin/admin-command-runner.ts';
import { startAdminSocket } from '#server/admin/serve-admin-socket.ts';
import { createBackupTaker } from '#server/backup/take-backup.ts';
import { createContactMessageRepository } from '#server/features/contact/contact-repository.ts';
import { adminSocketPath } from '#server/platform/data-dir/admin-socket-path.ts';
import { contactMessages, quotes } from '#server/platform/db/schema.ts';
import { createLogger } from '#server/platform/logger.ts';
import { postJson } from '../api/account-support.ts';
import { databaseTargets } from '../support/databases.ts';
import { runAdminOn } from '../support/licensing.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../..');
const cli = path.join(repoRoot, 'server/admin/cli.ts');

/**
 * Issue 38, invariant A (decision 208): a contact message with `ESC ]0;…` (retitles the
 * terminal), `ESC [2J` (clears it), an OSC 8 link, a company name with C1 U+009B and bidi U+202E:
 * `npm run admin -- contact-messages list` and `quotes list` printed them raw, so the operator's
 * terminal was retitled, cleared, showed fake text and a disguised link. The contracts now refuse
 * such text, and every admin command's output, relayed from a live server too, shows what was
 * stored with those characters escaped.
 */
const hostile = {
  name: 'Mallory\u001b]0;root@prod: all checks passed\u0007',
  role: 'CTO\u001b[2J\u001b[H',
  company: 'Acme\u009b2J \u202eexe.txt\u202c Ltd',
  message: [
    'Hello,',
    '\u001b]8;;https://evil.example/login\u0007Open the ticket\u001b]8;;\u0007',
    '\u001b[1A\u001b[2K\rfake line\u009b31m',
  ].join('\r\n'),
};
const quoteHostile = {
  companyName: 'Evil\u001b]0;owned\u0007 \u202eGmbH\nNUMBER  fake row',
  purchaseOrder: 'PO\u009b2J\u200b1',
};

/** What a terminal obeys: a control or format character other than the layout's \n. */
const RAW = /[\p{Cc}\p{Cf}\u2028\u2029]/u;
const rawIn = (output: string) => RAW.test(output.replaceAll('\n', ''));

describe.each(databaseTargets)('visitor text in the terminal on $name', (target) => {
  let t: TestApp;
  let quoteNumber: string;
  beforeAll(async () => {
    t = await createTestApp(target);
    const created = await postJson(t, '/account/v1/quotes', {
      companyName: 'Clean GmbH',
      emailAddress: 'buyer@example.com',
      addressLine: 'Hauptstraße 1',
      postalCode: '10115',
      city: 'Berlin',
      country: 'DE',
      edition: 'Enterprise',
      quantity: 25,
      billingPeriod: 'yearly',
      billingCurrency: 'EUR',
    });
    expect(created.status).toBe(201);
    const [quote] = await t.deps.database.db.select().from(quotes);
    if (!quote) throw new Error('no quote');
    quoteNumber = quote.number;
  });
  afterAll(() => t.close());

  it('the contact form and the quote refuse control and format characters and store nothing', async () => {
    const contact = await postJson(t, '/api/submitContactForm', {
      ...hostile,
      emailAddress: 'mallory@example.com',
    });
    expect(contact.status).toBe(400);
    expect(await contact.text()).toContain('invisible control or formatting character');
    expect(await t.deps.database.db.select().from(contactMessages)).toEqual([]);
    const quote = await postJson(t, '/account/v1/quotes', {
      companyName: 'Acme\u009b2J \u202eexe.txt',
      emailAddress: 'buyer@example.com',
      addressLine: 'Hauptstraße 1',
      postalCode: '10115',
      city: 'Berlin',
      country: 'DE',
      purchaseOrder: 'PO\u001b[2J',
      edition: 'Enterprise',
      quantity: 25,
      billingPeriod: 'yearly',
      billingCurrency: 'EUR',
    });
    expect(quote.status).toBe(400);
    expect(await t.deps.database.db.select().from(quotes)).toHaveLength(1);
  });

  it('stored text (from before the contracts refused it) reaches the operator escaped, in every view', async () => {
    const db = t.deps.database.db;
    await createContactMessageRepository(db).insert({
      ...hostile,
      email: 'mallory@example.com',
      createdAt: t.deps.clock(),
    });
    await db.update(quotes).set(quoteHostile).where(eq(quotes.number, quoteNumber));

    const views = [
      ['contact-messages', 'list'],
      ['contact-messages', 'list', '--json'],
      ['quotes', 'list'],
      ['quotes', 'list', '--json'],
      ['quotes', 'show', quoteNumber],
      ['quotes', 'show', quoteNumber, '--json'],
    ];
    for (const argv of views) {
      const ran = await runAdminOn(t, ...argv);
      expect(ran.code, argv.join(' ')).toBe(0);
      expect(rawIn(ran.out), `${argv.join(' ')}: ${JSON.stringify(ran.out)}`).toBe(false);
      expect(rawIn(ran.err)).toBe(false);
      if (argv.includes('--json')) {
        // Valid JSON still, for exactly what was stored.
        const parsed: unknown = JSON.parse(ran.out);
        expect(JSON.stringify(parsed)).toContain(
          JSON.stringify(argv[0] === 'quotes' ? quoteHostile.purchaseOrder : hostile.company),
        );
      }
    }

    const listed = await runAdminOn(t, 'contact-messages', 'list');
    expect(listed.out).toContain('Mallory\\u001b]0;root@prod: all checks passed\\u0007');
    expect(listed.out).toContain('Acme\\u009b2J \\u202eexe.txt\\u202c Ltd');
    expect(listed.out).toContain('  \\u001b]8;;https://evil.example/login\\u0007Open the ticket');
    // The message's own lines stay lines; a CR inside one is shown, not obeyed.
    expect(listed.out.split('\n')).toContain('  \\u001b[1A\\u001b[2K\\u000dfake line\\u009b31m');
    const table = await runAdminOn(t, 'quotes', 'list');
    // A line break inside a value cannot fake a row of the table.
    expect(table.out.split('\n').filter((line) => line.startsWith('NUMBER'))).toHaveLength(1);
    expect(table.out).toContain('Evil\\u001b]0;owned\\u0007 \\u202eGmbH\\u000aNUMBER  fake row');
  });
});

describe('relayed from a live server to the operator terminal', () => {
  const pglite = databaseTargets.find((target) => target.name === 'pglite');
  if (!pglite) throw new Error('PGlite target missing');
  let t: TestApp;
  let dataDir: string;

  beforeAll(async () => {
    t = await createTestApp(pglite);
    dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-terminal-'));
  });
  afterAll(async () => {
    await t.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** `npm run admin -- …` as a process of its own, on DATA_DIR: its stdout and stderr bytes. */
  const cliRun = (runDir: string, ...argv: string[]) =>
    run(process.execPath, [cli, ...argv], {
      env: { ...process.env, DATA_DIR: runDir, DATABASE_URL: '', LOG_LEVEL: 'silent', PORT: '1' },
      encoding: 'buffer',
    });

  it('`contact-messages list` through the admin socket writes no raw control bytes to stdout', async () => {
    await createContactMessageRepository(t.deps.database.db).insert({
      ...hostile,
      email: 'mallory@example.com',
      createdAt: t.deps.clock(),
    });
    await mkdir(path.join(dataDir, 'pglite'));
    const socket = startAdminSocket({
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
    try {
      expect(await socket.ready).toBe(true);
      const { stdout, stderr } = await cliRun(dataDir, 'contact-messages', 'list');
      const out = stdout.toString('utf8');
      expect(out).toContain('Mallory\\u001b]0;root@prod');
      expect(rawIn(out)).toBe(false);
      expect(rawIn(stderr.toString('utf8'))).toBe(false);
    } finally {
      await socket.stop();
    }
  });

  it('the command line escapes what a server relays, whatever the server sends', async () => {
    const runDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-terminal-relay-'));
    await mkdir(path.join(runDir, 'run'), { mode: 0o700 });
    const server: Server = createServer((connection) => {
      connection.once('data', () => {
        for (const message of [
          { type: 'out', line: 'row \u001b]0;owned\u0007 \u009b2J \u202eevil' },
          { type: 'err', line: '\u001b[2Jcleared' },
          { type: 'exit', code: 0 },
        ]) {
          connection.write(`${JSON.stringify(message)}\n`);
        }
        connection.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(adminSocketPath(runDir), resolve));
    try {
      const { stdout, stderr } = await cliRun(runDir, 'contact-messages', 'list');
      expect(stdout.toString('utf8')).toBe('row \\u001b]0;owned\\u0007 \\u009b2J \\u202eevil\n');
      expect(stderr.toString('utf8')).toBe('\\u001b[2Jcleared\n');
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await rm(runDir, { recursive: true, force: true });
    }
  });
});
