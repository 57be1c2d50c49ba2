import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { eq, or } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { writeBackup } from '#server/backup/backup-file.ts';
import { runAdmin } from '#server/admin/run-admin.ts';
import { contactMessages, emailOutbox, quotes } from '#server/platform/db/schema.ts';
import { createOutboxDelivery } from '#server/platform/email/deliver-outbox.ts';
import { createFileTransport } from '#server/platform/email/file-transport.ts';
import { listMailFiles } from '#server/platform/email/mail-files.ts';
import { createLogger } from '#server/platform/logger.ts';
import { postJson, requestTrial } from '#tests/api/account-support.ts';
import { databaseTargets } from '../support/databases.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { enterpriseOrder, orderAndConfirm } from './support/invoice-orders.ts';

/**
 * Issue 38, the Person invariant (decision 211): one person wrote to us under several spellings
 * of one Gmail address (case, `+tags`, dots, googlemail.com). Export found the trial and the
 * invoice order but not the quote; erasure left the contact message, the quote and the outbox
 * rows (so a fresh backup still held them) and every `.eml` file in `$DATA_DIR/mail`. Every
 * address column now has its normalized form, and export, erasure and retention look by it.
 */

const TRIAL = 'Jane.Doe+trial@Gmail.com';
const CONTACT = 'JANE.DOE@gmail.com';
const QUOTE = 'janedoe+quote@googlemail.com';
const ORDER = 'J.a.n.e.Doe+billing@GMAIL.com';
/** The spelling the person gives when they ask: yet another one. */
const ASKED_AS = 'JaneDoe@GoogleMail.com';
const PERSON = 'janedoe@gmail.com';
const OTHER = 'someone.else@example.com';

/** The tables of a backup file whose rows mention `needle` (case-insensitive). */
function tablesMentioning(backup: Buffer, needle: RegExp): string[] {
  const found = new Set<string>();
  let table = '';
  for (const line of gunzipSync(backup).toString('utf8').split('\n')) {
    if (!line) continue;
    const name = z.object({ table: z.string() }).safeParse(JSON.parse(line));
    if (name.success) table = name.data.table;
    else if (needle.test(line)) found.add(table);
  }
  return [...found].sort();
}

describe.each(databaseTargets)('one person under every spelling on $name', (target) => {
  let t: TestApp;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-person-'));
    t = await createTestApp(target, {
      env: { DATA_DIR: dataDir },
      now: new Date('2026-03-02T10:00:00Z'),
    });
  });
  afterAll(async () => {
    await t.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** An admin command as the operator runs it, on the app's database and data directory. */
  async function admin(...argv: string[]) {
    const out: string[] = [];
    const code = await runAdmin(argv, {
      io: { out: (line) => out.push(line), err: (line) => out.push(line) },
      environment: {
        LOG_LEVEL: 'silent',
        SECRET_KEY: t.deps.secretKey,
        PUBLIC_BASE_URL: t.deps.env.PUBLIC_BASE_URL,
        DATA_DIR: dataDir,
      },
      openDatabase: async () => ({ ...t.deps.database, close: async () => undefined }),
      now: () => t.deps.clock(),
    });
    return { code, out: out.join('\n') };
  }

  async function deliverToFiles(): Promise<void> {
    const logger = createLogger('silent');
    const delivery = createOutboxDelivery({
      db: t.deps.database.db,
      transport: createFileTransport(dataDir, logger),
      from: 'Orgsmith <hello@orgsmith.io>',
      clock: () => t.deps.clock(),
      logger,
    });
    while ((await delivery.deliverDue()).sent > 0);
  }

  const filesOfThePerson = async () =>
    (await listMailFiles(dataDir)).filter((mail) => mail.recipients.includes(PERSON));

  it('export finds the trial, contact, quote and invoice order; erasure leaves none of what no law keeps, .eml files included', async () => {
    expect((await requestTrial(t, { emailAddress: TRIAL, productId: 'orgsmith-cli' })).status).toBe(
      204,
    );
    for (const [name, emailAddress] of [
      ['Jane Doe', CONTACT],
      ['Someone Else', OTHER],
    ] as const) {
      const sent = await postJson(t, '/api/submitContactForm', {
        name,
        emailAddress,
        message: 'Please send me a quote.',
      });
      expect(sent.status).toBeLessThan(300);
    }
    const quoted = await postJson(t, '/account/v1/quotes', {
      emailAddress: QUOTE,
      companyName: 'Doe GmbH',
      addressLine: 'Hauptstraße 1',
      postalCode: '10115',
      city: 'Berlin',
      country: 'DE',
      edition: 'Pro',
      quantity: 4,
      billingPeriod: 'yearly',
      billingCurrency: 'EUR',
    });
    expect(quoted.status).toBeLessThan(300);
    await orderAndConfirm(t, enterpriseOrder(ORDER));
    await deliverToFiles();
    const mailed = (await filesOfThePerson()).length;
    expect(mailed).toBeGreaterThanOrEqual(5);

    const out = path.join(dataDir, 'export.json');
    const exported = await admin('privacy', 'export', ASKED_AS, '--out', out);
    expect(exported.code).toBe(0);
    const document = z
      .object({
        normalizedEmailAddress: z.string(),
        licences: z.array(z.object({ email: z.string() })),
        quotes: z.array(z.object({ email: z.string() })),
        invoiceOrders: z.array(z.object({ emailNormalized: z.string() })),
        contactMessages: z.array(z.object({ email: z.string() })),
        emailsSent: z.array(z.object({ to: z.string(), replyTo: z.string().nullable() })),
        mailFiles: z.array(z.object({ file: z.string() })),
      })
      .parse(JSON.parse(await readFile(out, 'utf8')));
    expect(document.normalizedEmailAddress).toBe(PERSON);
    expect(document.licences).toHaveLength(2);
    expect(document.quotes.map((row) => row.email)).toEqual([QUOTE]);
    expect(document.invoiceOrders).toHaveLength(1);
    expect(document.contactMessages.map((row) => row.email)).toEqual([CONTACT]);
    const spellings = new Set(document.emailsSent.flatMap((row) => [row.to, row.replyTo]));
    for (const spelling of [TRIAL, CONTACT, QUOTE]) expect(spellings).toContain(spelling);
    expect(document.mailFiles).toHaveLength(mailed);
    expect(JSON.stringify(document)).not.toContain(OTHER);

    const erased = await admin('privacy', 'erase', ASKED_AS);
    expect(erased.code).toBe(0);
    expect(erased.out).toMatch(/^Ended subscription \S+ at the payment provider\.$/m);
    expect(erased.out).toMatch(/^Erased: .*contact_messages 1/m);
    expect(erased.out).toMatch(/^Erased: .*quotes 1/m);
    expect(erased.out).toMatch(/^Erased: .*email_outbox [1-9]/m);
    expect(erased.out).toMatch(new RegExp(`^Erased: .*mail_files ${mailed}\\.$`, 'm'));
    expect(erased.out).toMatch(/^Kept: invoice_orders 1 — confirmed orders: commercial letters/m);
    expect(erased.out).toMatch(
      /^Kept: payment_documents [1-9] — invoices and booking records, 8 years \(§ 147 AO, § 257 HGB/m,
    );
    expect(erased.out).toMatch(/^Kept: trial_claims 1 — a keyed hash, not the address/m);

    const db = t.deps.database.db;
    expect(
      await db.select().from(contactMessages).where(eq(contactMessages.emailNormalized, PERSON)),
    ).toEqual([]);
    expect(await db.select().from(quotes).where(eq(quotes.emailNormalized, PERSON))).toEqual([]);
    expect(
      await db
        .select()
        .from(emailOutbox)
        .where(
          or(
            eq(emailOutbox.toAddressNormalized, PERSON),
            eq(emailOutbox.replyToNormalized, PERSON),
          ),
        ),
    ).toEqual([]);
    expect(await filesOfThePerson()).toEqual([]);
    // The other person's message and its e-mail stay.
    expect(await db.select().from(contactMessages)).toHaveLength(1);
    expect(
      (await listMailFiles(dataDir)).some((mail) => mail.recipients.includes(OTHER.toLowerCase())),
    ).toBe(true);

    // A fresh backup holds the person only in the records the law keeps.
    const backup = path.join(dataDir, 'after-erasure.jsonl.gz');
    await writeBackup(db, backup, { database: target.name, now: t.deps.clock() });
    const holding = tablesMentioning(await readFile(backup), /jane|j\.a\.n\.e/i);
    expect(holding).not.toContain('contact_messages');
    expect(holding).not.toContain('quotes');
    expect(holding).not.toContain('email_outbox');
    expect(holding).not.toContain('licences');
    expect(
      holding.filter(
        (table) => !['invoice_orders', 'local_invoices', 'payment_documents'].includes(table),
      ),
    ).toEqual([]);
  });
});
