import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  invoiceReminders,
  licences,
  localInvoices,
  subscriptions,
} from '#server/platform/db/schema.ts';
import { sweepInvoiceReminders } from '#server/billing/subscriptions/sweep-invoice-reminders.ts';
import { markLocalInvoicePaid } from '#server/billing/payments/local/local-invoices.ts';
import { runLocalBilling } from '#server/billing/payments/local/local-billing-worker.ts';
import { handlePaymentEvent, syncDepsOf } from '#server/billing/subscriptions/sync-subscription.ts';
import type { InvoiceCheckoutRequestInput } from '#shared/contracts/invoice-checkout.ts';
import {
  cancelOrder,
  confirmationToken,
  confirmOrder,
} from '#tests/security/support/invoice-orders.ts';
import { databaseTargets } from '../support/databases.ts';
import { createTestApp, csrfHeaders, type TestApp } from '../support/test-app.ts';
import { browser, freshIp, licenceKeyPattern, mailsTo } from './checkout-support.ts';

const DAY = 86_400_000;
const flat = (html: string) => html.replace(/\s+/g, ' ');

const enterpriseYearly: InvoiceCheckoutRequestInput = {
  edition: 'Enterprise',
  quantity: 25,
  billingPeriod: 'yearly',
  billingCurrency: 'EUR',
  companyName: 'Acme Holding GmbH',
  billingEmail: 'ap@acme-invoice.test',
  addressLine: 'Hauptstraße 1',
  postalCode: '10115',
  city: 'Berlin',
  country: 'de',
  vatId: 'DE 123 456 789',
  poReference: 'PO-4711',
};

async function postInvoiceCheckout(t: TestApp, body: unknown): Promise<Response> {
  return t.app.request('/account/v1/checkout/invoice', {
    method: 'POST',
    headers: {
      ...csrfHeaders(),
      'Content-Type': 'application/json',
      'X-Forwarded-For': freshIp(),
    },
    body: JSON.stringify(body),
  });
}

const orderSchema = z.object({
  subscriptionId: z.string(),
  invoiceNumber: z.string(),
  invoiceUrl: z.url(),
  amountDue: z.number(),
  currency: z.enum(['USD', 'EUR']),
  dueAt: z.string(),
  licenceEmail: z.string(),
  invoiceEmailedTo: z.string().nullable(),
});

/** Orders, then confirms the link e-mailed to the billing address (decision 153). */
async function order(t: TestApp, body: InvoiceCheckoutRequestInput) {
  const response = await postInvoiceCheckout(t, body);
  expect(response.status).toBe(201);
  const confirmed = await confirmOrder(t, await confirmationToken(t, body.billingEmail));
  expect(confirmed.status).toBe(200);
  return orderSchema.parse(await confirmed.json());
}

async function licenceOf(t: TestApp, subscriptionId: string) {
  const [mirror] = await t.deps.database.db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.subscriptionId, subscriptionId));
  if (!mirror?.licenceId) throw new Error('no licence attached');
  const [licence] = await t.deps.database.db
    .select()
    .from(licences)
    .where(eq(licences.id, mirror.licenceId));
  if (!licence) throw new Error('licence gone');
  return licence;
}

describe.each(databaseTargets)('pay by invoice with the local provider on $name', (target) => {
  let t: TestApp;
  const start = new Date('2026-03-01T10:00:00Z');
  beforeAll(async () => {
    t = await createTestApp(target, { now: start });
  });
  afterAll(() => t.close());

  it('refuses monthly, Starter, and orders without company or billing e-mail (400 with fields)', async () => {
    const monthly = await postInvoiceCheckout(t, {
      ...enterpriseYearly,
      billingPeriod: 'monthly',
    });
    expect(monthly.status).toBe(400);
    expect(await monthly.json()).toMatchObject({
      Error: 'InvalidRequest',
      issues: [{ field: 'billingPeriod' }],
    });
    const starter = await postInvoiceCheckout(t, {
      ...enterpriseYearly,
      edition: 'Starter',
      quantity: 3,
    });
    expect(starter.status).toBe(400);
    const missing = await postInvoiceCheckout(t, {
      ...enterpriseYearly,
      companyName: ' ',
      billingEmail: 'not-an-address',
      vatId: 'XX1',
    });
    expect(missing.status).toBe(400);
    const body: unknown = await missing.json();
    expect(body).toMatchObject({ Error: 'InvalidRequest' });
    const fields = JSON.stringify(body);
    expect(fields).toContain('"companyName"');
    expect(fields).toContain('"billingEmail"');
    expect(fields).toContain('"vatId"');
  });

  it('refuses a request without the CSRF token', async () => {
    const response = await t.app.request('/account/v1/checkout/invoice', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': freshIp() },
      body: JSON.stringify(enterpriseYearly),
    });
    expect(response.status).toBe(403);
  });

  it('issues the licence at once, sends an invoice net 30, reminds, suspends and restores', async () => {
    t.setNow(start);
    const placed = await order(t, enterpriseYearly);
    // Our number: the one on the PDF, the page, the e-mails and the commands (decision 218).
    expect(placed.invoiceNumber).toMatch(/^INV-2026-\d{5}$/);
    expect(placed.dueAt).toBe(new Date(start.getTime() + 30 * DAY).toISOString());
    // Enterprise yearly in EUR, from the pricing engine, in cents.
    expect(placed.amountDue).toBeGreaterThan(0);
    expect(placed.licenceEmail).toBe('ap@acme-invoice.test');

    const licence = await licenceOf(t, placed.subscriptionId);
    expect(licence.status).toBe('Active');
    expect(licence.edition).toBe('Enterprise');
    const keyMail = (await mailsTo(t, 'ap@acme-invoice.test')).find(
      (mail) => mail.kind === 'licence-key',
    );
    expect(keyMail?.textBody).toMatch(licenceKeyPattern);
    // The key's e-mail links the invoice, so the answer says where it went (decision 218), and
    // the key's e-mail does not call it paid.
    expect(placed.invoiceEmailedTo).toBe('ap@acme-invoice.test');
    expect(keyMail?.textBody).not.toMatch(/paid until/i);
    expect(keyMail?.textBody).toContain(`Invoice: ${placed.invoiceNumber}, unpaid, due `);

    // The hosted invoice page shows who pays what, by when, for which PO and VAT ID.
    const path = new URL(placed.invoiceUrl).pathname;
    const page = await browser(t, path);
    expect(page.status).toBe(200);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const html = flat(await page.text());
    for (const text of [
      placed.invoiceNumber,
      'Acme Holding GmbH',
      'DE123456789',
      'PO-4711',
      // The country by name, as the buyer chose it.
      'Hauptstraße 1, 10115 Berlin, Germany',
      'Open',
      // A German business: 19 % VAT on top of the net price, the total the order answer named.
      'VAT 19 %',
      `${new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR' }).format(placed.amountDue / 100)}`,
    ]) {
      expect(html).toContain(text);
    }
    expect((await browser(t, `/billing/local/invoice/${placed.invoiceNumber}`)).status).toBe(404);

    const sync = syncDepsOf(t.deps);
    const reminders = async () =>
      (await mailsTo(t, 'ap@acme-invoice.test')).filter((mail) => mail.kind === 'invoice-reminder');

    // Before the due date: nothing.
    t.setNow(new Date(start.getTime() + 29 * DAY));
    expect((await sweepInvoiceReminders(sync)).reminded).toBe(0);
    // On the due date: the first reminder, once, with the invoice link.
    t.setNow(new Date(start.getTime() + 30 * DAY));
    expect((await sweepInvoiceReminders(sync)).reminded).toBe(1);
    expect((await sweepInvoiceReminders(sync)).reminded).toBe(0);
    const [first] = await reminders();
    expect(first?.subject).toContain('is due today');
    expect(first?.textBody).toContain(placed.invoiceUrl);
    // A week later: the second.
    t.setNow(new Date(start.getTime() + 37 * DAY));
    expect((await sweepInvoiceReminders(sync)).reminded).toBe(1);
    expect((await reminders()).map((mail) => mail.subject)).toEqual([
      expect.stringContaining('is due today'),
      expect.stringContaining('is overdue'),
    ]);
    expect((await licenceOf(t, placed.subscriptionId)).status).toBe('Active');
    // Two weeks past due: suspended, with the deactivation e-mail.
    t.setNow(new Date(start.getTime() + 44 * DAY));
    await sweepInvoiceReminders(sync);
    expect((await licenceOf(t, placed.subscriptionId)).status).toBe('Deactivated');
    const kinds = (await mailsTo(t, 'ap@acme-invoice.test')).map((mail) => mail.kind);
    expect(kinds).toContain('licence-deactivated');
    const suspended = (await mailsTo(t, 'ap@acme-invoice.test')).find(
      (mail) => mail.kind === 'licence-deactivated',
    );
    expect(suspended?.textBody).toContain(
      'the invoice for your Orgsmith subscription is still unpaid',
    );

    // Paid (what `invoices mark-paid` does): invoice.paid restores the licence.
    const paid = await markLocalInvoicePaid(
      { db: t.deps.database.db, clock: t.deps.clock },
      placed.invoiceNumber,
    );
    expect(paid.ok).toBe(true);
    if (!paid.ok) return;
    for (const event of paid.events) await handlePaymentEvent(sync, event);
    expect((await licenceOf(t, placed.subscriptionId)).status).toBe('Active');
    expect((await mailsTo(t, 'ap@acme-invoice.test')).map((mail) => mail.kind)).toContain(
      'licence-reactivated',
    );
    const [row] = await t.deps.database.db
      .select()
      .from(localInvoices)
      .where(eq(localInvoices.number, placed.invoiceNumber));
    expect(row?.status).toBe('paid');
    expect(flat(await (await browser(t, path)).text())).toContain('This invoice is paid.');
    // No further reminders for a paid invoice.
    t.setNow(new Date(start.getTime() + 60 * DAY));
    expect((await sweepInvoiceReminders(sync)).reminded).toBe(0);
    expect(
      await t.deps.database.db
        .select()
        .from(invoiceReminders)
        .where(eq(invoiceReminders.subscriptionId, placed.subscriptionId)),
    ).toHaveLength(2);
  });

  it('renews a plan changed to free Starter with nothing owed: no open invoice, no number, the address may order again', async () => {
    // Invariant 7 (docs/product-rules.md): the 10,000-run model test's counterexample.
    t.setNow(start);
    const buyer = { ...enterpriseYearly, billingEmail: 'ap@starter-renewal.test' };
    const placed = await order(t, buyer);
    const sync = syncDepsOf(t.deps);
    const paid = await markLocalInvoicePaid(
      { db: t.deps.database.db, clock: t.deps.clock },
      placed.invoiceNumber,
    );
    if (!paid.ok) throw new Error(paid.detail);
    for (const event of paid.events) await handlePaymentEvent(sync, event);
    const [mirror] = await t.deps.database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.subscriptionId, placed.subscriptionId));
    if (!mirror?.customerId) throw new Error('no customer mirrored');
    const { url } = await t.deps.payments.createBillingPortalSession({
      customerId: mirror.customerId,
      returnUrl: 'http://localhost:3000/',
    });
    const changed = await browser(
      t,
      `${new URL(url).pathname}/subscriptions/${placed.subscriptionId}/plan`,
      { edition: 'Starter', quantity: '3', billingPeriod: 'monthly' },
    );
    expect(changed.headers.get('location')).toContain('done=plan-changed');
    const numbered = async () =>
      (await t.deps.database.db.select().from(localInvoices)).filter((row) => row.number).length;
    const numbersBefore = await numbered();

    t.setNow(new Date(start.getTime() + 31 * DAY));
    await runLocalBilling(t.deps);
    const renewals = (
      await t.deps.database.db
        .select()
        .from(localInvoices)
        .where(eq(localInvoices.subscriptionId, placed.subscriptionId))
    ).filter((row) => row.amount === 0 && row.periodStart.getTime() > start.getTime());
    // The free month is billed as Stripe bills one: an invoice of nothing, paid at once, and
    // no number of the gapless INV- series spent on a document that is never issued.
    expect(renewals.length).toBeGreaterThan(0);
    expect(renewals.every((row) => row.status === 'paid' && row.number === null)).toBe(true);
    expect(await numbered()).toBe(numbersBefore);
    const [renewed] = await t.deps.database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.subscriptionId, placed.subscriptionId));
    expect(renewed?.openInvoiceId).toBeNull();

    // Nothing is owed, so nothing holds the address.
    const again = await postInvoiceCheckout(t, buyer);
    expect(again.status).toBe(201);
    t.setNow(start);
  });
});

describe.each(databaseTargets)('pay by invoice: orders per billing e-mail on $name', (target) => {
  let t: TestApp;
  const start = new Date('2026-03-01T10:00:00Z');
  beforeAll(async () => {
    t = await createTestApp(target, { now: start });
  });
  afterAll(() => t.close());

  it('takes at most 5 orders a day for one billing e-mail, from any client, and then changes nothing', async () => {
    t.setNow(start);
    const victim = 'finance@victim-invoice.test';
    // One open order per address (decision 153): each is cancelled through its link before the next.
    for (let i = 0; i < 5; i += 1) {
      const billingEmail = i % 2 ? victim.toUpperCase() : victim;
      expect((await postInvoiceCheckout(t, { ...enterpriseYearly, billingEmail })).status).toBe(
        201,
      );
      expect((await cancelOrder(t, await confirmationToken(t, billingEmail))).status).toBe(204);
    }
    const countRows = async () => ({
      subscriptions: (await t.deps.database.db.select().from(subscriptions)).length,
      licences: (await t.deps.database.db.select().from(licences)).length,
      invoices: (await t.deps.database.db.select().from(localInvoices)).length,
      mails: (await mailsTo(t, victim)).length,
    });
    const before = await countRows();

    const refused = await postInvoiceCheckout(t, {
      ...enterpriseYearly,
      billingEmail: ` ${victim} `,
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toMatch(/^\d+$/);
    expect(await refused.json()).toMatchObject({ Error: 'TooManyRequests' });
    expect(await countRows()).toEqual(before);

    // Someone else's orders are not held up, and the address may order again the next day.
    await order(t, { ...enterpriseYearly, billingEmail: 'ap@other-invoice.test' });
    t.setNow(new Date(start.getTime() + DAY + 1000));
    await order(t, { ...enterpriseYearly, billingEmail: victim });
    t.setNow(start);
  });
});
