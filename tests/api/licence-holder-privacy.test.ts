import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { writeBackup } from '#server/backup/backup-file.ts';
import {
  invoiceOrders,
  localCheckoutSessions,
  localSubscriptions,
  subscriptions,
} from '#server/platform/db/schema.ts';
import type { InvoiceCheckoutRequestInput } from '#shared/contracts/invoice-checkout.ts';
import {
  confirmationToken,
  confirmOrder,
  placeOrder,
} from '#tests/security/support/invoice-orders.ts';
import { databaseTargets } from '../support/databases.ts';
import { runAdminOn } from '../support/licensing.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import {
  createCheckout,
  mailsTo,
  payLocally,
  pro10YearlyEur,
  successCard,
} from './checkout-support.ts';

/** One holder under three spellings of one Gmail mailbox, named by two payers (decision 223). */
const HOLDER_CARD = 'Lee.Holder+cli@Gmail.com';
const HOLDER_ORDER = 'l.e.e.holder@googlemail.com';
const HOLDER_PENDING = 'LeeHolder+pending@gmail.com';
const ASKED_AS = 'leeholder@gmail.com';
const PAYER = 'ap@privacy-holder.test';
const OTHER_PAYER = 'purchasing@privacy-holder.test';

const order = (billingEmail: string, licenceHolderEmail: string): InvoiceCheckoutRequestInput => ({
  edition: 'Enterprise',
  quantity: 25,
  billingPeriod: 'yearly',
  billingCurrency: 'EUR',
  companyName: 'Privacy Holder GmbH',
  billingEmail,
  addressLine: 'Hauptstraße 1',
  postalCode: '10115',
  city: 'Berlin',
  country: 'DE',
  licenceHolderEmail,
});

/** The tables of a backup file whose rows match `needle`. */
function tablesMatching(backup: Buffer, needle: RegExp): string[] {
  const found = new Set<string>();
  let table = '';
  for (const line of gunzipSync(backup).toString('utf8').split('\n')) {
    if (!line) continue;
    const parsed: unknown = JSON.parse(line);
    const name = z.object({ table: z.string() }).safeParse(parsed);
    if (name.success) table = name.data.table;
    else if (needle.test(line) && 'rows' in Object(parsed)) found.add(table);
  }
  return [...found].sort();
}

describe.each(databaseTargets)('privacy of a licence holder on $name', (target) => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    t = await createTestApp(target, { now: new Date('2026-03-01T10:00:00Z') });
    dir = await mkdtemp(join(tmpdir(), 'holder-privacy-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    await t.close();
  });
  const admin = (...argv: string[]) => runAdminOn(t, ...argv);
  const holderRows = async () => {
    const db = t.deps.database.db;
    return [
      ...(await db
        .select({ id: invoiceOrders.id })
        .from(invoiceOrders)
        .where(isNotNull(invoiceOrders.licenceHolderEmail))),
      ...(await db
        .select({ id: localCheckoutSessions.id })
        .from(localCheckoutSessions)
        .where(isNotNull(localCheckoutSessions.licenceHolderEmail))),
      ...(await db
        .select({ id: localSubscriptions.id })
        .from(localSubscriptions)
        .where(isNotNull(localSubscriptions.licenceHolderEmail))),
    ];
  };

  it('export and erasure find the holder under every spelling in every table that names them; the payers’ rows stay theirs', async () => {
    const { sessionId } = await createCheckout(t, {
      ...pro10YearlyEur,
      licenceHolderEmail: HOLDER_CARD,
    });
    expect((await payLocally(t, sessionId, { email: PAYER, card: successCard })).status).toBe(303);
    expect((await placeOrder(t, order(PAYER, HOLDER_ORDER))).status).toBe(201);
    expect((await confirmOrder(t, await confirmationToken(t, PAYER))).status).toBe(200);
    // Never confirmed: the holder got nothing, but the order names them.
    expect((await placeOrder(t, order(OTHER_PAYER, HOLDER_PENDING))).status).toBe(201);
    // The card's session and subscription, the two orders and the confirmed one's subscription.
    expect(await holderRows()).toHaveLength(5);

    const out = join(dir, 'holder.json');
    const exported = await admin('privacy', 'export', ASKED_AS, '--out', out);
    expect(exported.code).toBe(0);
    const document = z
      .object({
        licences: z.array(z.object({ email: z.string() })),
        licenceHolderOf: z.array(
          z.object({ table: z.string(), id: z.string(), licenceHolderEmail: z.string() }),
        ),
        invoiceOrders: z.array(z.unknown()),
        emailsSent: z.array(z.object({ kind: z.string(), to: z.string() })),
      })
      .parse(JSON.parse(await readFile(out, 'utf8')));
    expect(document.licences.map((licence) => licence.email).sort()).toEqual(
      [HOLDER_CARD, HOLDER_ORDER].sort(),
    );
    expect(document.licenceHolderOf.map((row) => row.table).sort()).toEqual([
      'invoice_orders',
      'invoice_orders',
      'local_checkout_sessions',
      'local_subscriptions',
      'local_subscriptions',
    ]);
    expect(new Set(document.licenceHolderOf.map((row) => row.licenceHolderEmail))).toEqual(
      new Set([HOLDER_CARD, HOLDER_ORDER, HOLDER_PENDING]),
    );
    // The payers' e-mails that name the holder are found (their bodies), without the payer's address.
    expect(document.emailsSent).toContainEqual({
      kind: 'licence-sent-to-holder',
      to: 'another recipient',
    });
    expect(document.emailsSent).toContainEqual({
      kind: 'invoice-order-confirmation',
      to: 'another recipient',
    });
    // The orders are the payers': the holder's export shows only where it names them.
    expect(document.invoiceOrders).toEqual([]);
    expect(JSON.stringify(document.licenceHolderOf)).not.toContain('privacy-holder.test');

    const erased = await admin('privacy', 'erase', ASKED_AS);
    expect(erased.code).toBe(0);
    expect(erased.out).toMatch(/^Erased: .*licence_holder_addresses 5/m);
    expect(erased.out).toMatch(/^Erased: .*licences 2/m);
    expect(await holderRows()).toEqual([]);
    // The payers' orders stay, the pending one included: only the holder's address left them.
    expect(await t.deps.database.db.select().from(invoiceOrders)).toHaveLength(2);

    const backup = join(dir, 'after-holder-erasure.jsonl.gz');
    await writeBackup(t.deps.database.db, backup, {
      database: target.name,
      now: t.deps.clock(),
    });
    expect(tablesMatching(await readFile(backup), /lee\.?holder|l\.e\.e\.holder/i)).toEqual([]);
  });

  it('erasing the payer takes the billing address out of the subscriptions kept for the books', async () => {
    const kim = 'kim@privacy-holder-dev.test';
    const { sessionId } = await createCheckout(t, { ...pro10YearlyEur, licenceHolderEmail: kim });
    expect((await payLocally(t, sessionId, { email: PAYER, card: successCard })).status).toBe(303);
    const kimsKey = async () =>
      (await mailsTo(t, kim)).filter((mail) => mail.kind === 'licence-key');
    // The holder's key e-mail names the payer.
    expect((await kimsKey())[0]?.textBody).toContain(`(${PAYER}) bought this licence for you`);
    const kept = () =>
      t.deps.database.db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.billingEmailNormalized, PAYER));
    expect(await kept()).toHaveLength(3);
    const out = join(dir, 'payer.json');
    expect((await admin('privacy', 'export', PAYER, '--out', out)).code).toBe(0);
    const document = z
      .object({
        subscriptions: z.array(z.object({ billingEmail: z.string().nullable() })),
        emailsSent: z.array(z.object({ kind: z.string(), to: z.string() })),
      })
      .parse(JSON.parse(await readFile(out, 'utf8')));
    expect(document.subscriptions.map((row) => row.billingEmail)).toEqual([PAYER, PAYER, PAYER]);
    // The holder's key e-mail names the payer: found, without the holder's address.
    expect(document.emailsSent).toContainEqual({ kind: 'licence-key', to: 'another recipient' });
    expect(JSON.stringify(document.emailsSent)).not.toContain(kim);

    const erased = await admin('privacy', 'erase', PAYER);
    expect(erased.code).toBe(0);
    expect(erased.out).toMatch(/^Erased: .*subscription_billing_addresses 3/m);
    expect(erased.out).toMatch(/^Kept: subscriptions 3/m);
    expect(await kept()).toEqual([]);
    expect(await kimsKey()).toEqual([]);
  });
});
