import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { licences, paymentDocuments, subscriptions } from '#server/platform/db/schema.ts';
import { sweepInvoiceReminders } from '#server/billing/subscriptions/sweep-invoice-reminders.ts';
import { createStripeClient } from '#server/billing/payments/stripe/stripe-client.ts';
import { syncStripeCatalog } from '#server/billing/payments/stripe/sync-stripe-catalog.ts';
import { syncDepsOf } from '#server/billing/subscriptions/sync-subscription.ts';
import { confirmationToken, confirmOrder } from '#tests/security/support/invoice-orders.ts';
import { databaseTargets } from '../support/databases.ts';
import { runAdminOn } from '../support/licensing.ts';
import { readDashboard } from '#server/features/dashboard/dashboard.ts';
import { startStripeFake, type StripeFake } from '../support/stripe-fake.ts';
import { createTestApp, csrfHeaders, type TestApp } from '../support/test-app.ts';
import { freshIp, licenceKeyPattern, mailsTo } from './checkout-support.ts';

const secretKey = 'sk_test_invoice_checkout';
const webhookSecret = 'whsec_invoice_checkout_secret';
const start = new Date('2026-03-01T10:00:00Z');
const DAY = 86_400_000;
const epoch = (date: Date) => Math.floor(date.getTime() / 1000);
const buyer = 'billing@globex-invoice.test';

const orderSchema = z.object({
  subscriptionId: z.string(),
  invoiceNumber: z.string(),
  invoiceUrl: z.string(),
  dueAt: z.string(),
  licenceEmail: z.string(),
  invoiceEmailedTo: z.string().nullable(),
});

describe.each(databaseTargets)('pay by invoice through Stripe on $name', (target) => {
  let fake: StripeFake;
  let t: TestApp;
  let signer: Stripe;
  let eventCounter = 0;

  beforeAll(async () => {
    fake = await startStripeFake();
    fake.setNow(epoch(start));
    t = await createTestApp(target, {
      now: start,
      env: {
        STRIPE_SECRET_KEY: secretKey,
        STRIPE_WEBHOOK_SECRET: webhookSecret,
        STRIPE_API_BASE_URL: fake.url,
      },
    });
    await syncStripeCatalog(createStripeClient({ secretKey, apiBaseUrl: fake.url }));
    signer = new Stripe(secretKey);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  async function deliver(type: string, object: Record<string, unknown>): Promise<void> {
    eventCounter++;
    const payload = JSON.stringify({
      id: `evt_invoice_${eventCounter}`,
      object: 'event',
      type,
      created: epoch(t.deps.clock()),
      data: { object },
    });
    const header = signer.webhooks.generateTestHeaderString({ payload, secret: webhookSecret });
    const response = await t.app.request('/account/v1/webhooks/stripe', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': header },
      body: payload,
    });
    expect(response.status).toBe(200);
  }
  const invoiceEvent = (type: string, invoiceId: string, subscriptionId: string) =>
    deliver(type, {
      object: 'invoice',
      id: invoiceId,
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: subscriptionId },
      },
    });

  async function licenceOf(subscriptionId: string) {
    const db = t.deps.database.db;
    const [mirror] = await db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.subscriptionId, subscriptionId));
    const [licence] = mirror?.licenceId
      ? await db.select().from(licences).where(eq(licences.id, mirror.licenceId))
      : [];
    return licence;
  }
  const kinds = async () => (await mailsTo(t, buyer)).map((mail) => mail.kind);

  it('creates the customer with VAT ID and PO number, sends the invoice net 30, issues the licence at once', async () => {
    const response = await t.app.request('/account/v1/checkout/invoice', {
      method: 'POST',
      headers: {
        ...csrfHeaders(),
        'Content-Type': 'application/json',
        'X-Forwarded-For': freshIp(),
      },
      body: JSON.stringify({
        edition: 'Pro',
        quantity: 10,
        billingPeriod: 'yearly',
        billingCurrency: 'EUR',
        companyName: 'Globex SE',
        billingEmail: buyer,
        addressLine: '1 rue de la Paix',
        postalCode: '75002',
        country: 'FR',
        city: 'Paris',
        vatId: 'FR40303265045',
        poReference: 'PO-2026-17',
      }),
    });
    expect(response.status).toBe(201);
    // Nothing at Stripe until the billing address confirms the order (decision 153).
    expect(fake.requestsTo('POST', '/v1/customers')).toHaveLength(0);
    const confirmed = await confirmOrder(t, await confirmationToken(t, buyer));
    expect(confirmed.status).toBe(200);
    const order = orderSchema.parse(await confirmed.json());
    // The fake is a test-mode account: Stripe e-mails no customer there, so nothing claims it did.
    expect(order.invoiceEmailedTo).toBeNull();

    // VIES confirmed the VAT ID (decision 210): Stripe gets it as `eu_vat`, with the consultation.
    const consultation = t.vies?.consultations.get('FR40303265045') ?? '';
    expect(consultation).toMatch(/^WAPI/);
    const [customer] = fake.requestsTo('POST', '/v1/customers');
    expect(customer?.body).toMatchObject({
      name: 'Globex SE',
      email: buyer,
      address: { country: 'FR', city: 'Paris', line1: '1 rue de la Paix', postal_code: '75002' },
      tax_id_data: [{ type: 'eu_vat', value: 'FR40303265045' }],
      invoice_settings: {
        custom_fields: [
          { name: 'VAT ID confirmed by VIES', value: consultation },
          { name: 'PO number', value: 'PO-2026-17' },
        ],
      },
    });
    // Stripe's invoice is the document: its number is the one number and the payment reference,
    // and its footer names the seller's EUR account (decision 218).
    const footer =
      'Pay by bank transfer to Orgsmith GmbH, IBAN DE89 3704 0044 0532 0130 00, BIC COBADEFFXXX, Commerzbank. Payment reference: the invoice number above.';
    expect(customer?.body).toMatchObject({ invoice_settings: { footer } });
    const [created] = fake.requestsTo('POST', '/v1/subscriptions');
    expect(created?.body).toMatchObject({
      collection_method: 'send_invoice',
      days_until_due: '30',
      items: [{ quantity: '10' }],
      metadata: {
        po_reference: 'PO-2026-17',
        edition: 'Pro',
        billing_period: 'yearly',
        vies_consultation_number: consultation,
      },
    });
    const invoice = fake.invoices.get(
      fake.subscriptions.get(order.subscriptionId)?.latest_invoice ?? '',
    );
    expect(invoice?.status).toBe('open');
    expect(invoice?.footer).toBe(footer);
    expect(order.invoiceNumber).toBe(invoice?.number);
    expect(order.invoiceNumber).toMatch(/^FAKE-\d{4}$/);
    expect(invoice?.custom_fields).toEqual([
      { name: 'VAT ID confirmed by VIES', value: consultation },
      { name: 'PO number', value: 'PO-2026-17' },
    ]);
    expect(fake.requestsTo('POST', `/v1/invoices/${invoice?.id}/send`)).toHaveLength(1);
    expect(order.invoiceUrl).toBe(`https://invoice.stripe.test/i/${invoice?.id}`);
    expect(order.dueAt).toBe(new Date(start.getTime() + 30 * DAY).toISOString());

    // Active at once, key e-mailed; the created webhook arriving later changes nothing.
    expect((await licenceOf(order.subscriptionId))?.status).toBe('Active');
    await deliver('customer.subscription.created', {
      object: 'subscription',
      id: order.subscriptionId,
    });
    expect((await licenceOf(order.subscriptionId))?.status).toBe('Active');
    const keyMails = (await mailsTo(t, buyer)).filter((mail) => mail.kind === 'licence-key');
    expect(keyMails).toHaveLength(1);
    expect(keyMails[0]?.textBody).toMatch(licenceKeyPattern);
    // Stripe's own invoice, linked (decision 180); the product numbers none of its own, so the
    // e-mail, the answer and the command name Stripe's number only (decision 218).
    expect(keyMails[0]?.textBody).toContain(`View your invoice: ${order.invoiceUrl}`);
    expect(keyMails[0]?.textBody).toContain(`Invoice: ${order.invoiceNumber}, unpaid, due `);
    expect(keyMails[0]?.textBody).not.toMatch(/\bINV-\d{4}/);
    expect(await t.deps.database.db.select().from(paymentDocuments)).toEqual([]);
    const listed = await runAdminOn(t, 'invoice-orders', 'list');
    expect(listed.out).toContain(order.invoiceNumber);

    // The dashboard sums Stripe's open invoice from the mirror (decision 245): what it still owes.
    const month = start.toISOString().slice(0, 7);
    const owed = {
      currency: 'EUR',
      open: 1,
      openMinor: invoice?.amount_remaining,
      overdue: 0,
      overdueMinor: 0,
    };
    expect((await readDashboard(t.deps.database.db, month, start)).invoices).toEqual([owed]);

    const sync = syncDepsOf(t.deps);
    const subscriptionId = order.subscriptionId;
    // Due date: Stripe marks the subscription past due; no failed-card e-mail, our reminder.
    t.setNow(new Date(start.getTime() + 30 * DAY));
    fake.updateSubscription(subscriptionId, { status: 'past_due' });
    await deliver('customer.subscription.updated', { object: 'subscription', id: subscriptionId });
    expect((await licenceOf(subscriptionId))?.status).toBe('Active');
    expect(await sweepInvoiceReminders(sync)).toMatchObject({ reminded: 1 });
    t.setNow(new Date(start.getTime() + 37 * DAY));
    expect(await sweepInvoiceReminders(sync)).toMatchObject({ reminded: 1 });
    const reminders = (await mailsTo(t, buyer)).filter((mail) => mail.kind === 'invoice-reminder');
    expect(reminders).toHaveLength(2);
    expect(reminders[1]?.textBody).toContain(order.invoiceUrl);
    expect(await kinds()).not.toContain('payment-failed');

    // Two weeks past due: suspended.
    t.setNow(new Date(start.getTime() + 44 * DAY));
    await sweepInvoiceReminders(sync);
    expect((await licenceOf(subscriptionId))?.status).toBe('Deactivated');
    expect(await kinds()).toContain('licence-deactivated');
    const late = new Date(start.getTime() + 44 * DAY);
    expect((await readDashboard(t.deps.database.db, month, late)).invoices).toEqual([
      { ...owed, overdue: 1, overdueMinor: invoice?.amount_remaining },
    ]);

    // The transfer arrives: invoice.paid restores the licence.
    fake.payInvoice(invoice?.id ?? '');
    fake.updateSubscription(subscriptionId, { status: 'active' });
    await invoiceEvent('invoice.paid', invoice?.id ?? '', subscriptionId);
    expect((await licenceOf(subscriptionId))?.status).toBe('Active');
    expect(await kinds()).toContain('licence-reactivated');
    expect((await readDashboard(t.deps.database.db, month, late)).invoices).toEqual([]);
  });
});
