import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { licences, subscriptions } from '#server/platform/db/schema.ts';
import { createStripeClient } from '#server/billing/payments/stripe/stripe-client.ts';
import { syncStripeCatalog } from '#server/billing/payments/stripe/sync-stripe-catalog.ts';
import { sweepInvoiceReminders } from '#server/billing/subscriptions/sweep-invoice-reminders.ts';
import { syncDepsOf } from '#server/billing/subscriptions/sync-subscription.ts';
import {
  confirmationToken,
  confirmedOrderSchema,
  confirmOrder,
  placeOrder,
} from '#tests/security/support/invoice-orders.ts';
import { databaseTargets } from '../support/databases.ts';
import { startStripeFake, type StripeFake } from '../support/stripe-fake.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import {
  createCheckout,
  issueTrial,
  licenceKeyPattern,
  mailsTo,
  pro10YearlyEur,
} from './checkout-support.ts';

const secretKey = 'sk_test_licence_holder';
const webhookSecret = 'whsec_licence_holder_secret';
const start = new Date('2026-03-01T10:00:00Z');
const DAY = 86_400_000;
const epoch = (date: Date) => Math.floor(date.getTime() / 1000);

describe.each(databaseTargets)('a licence holder through Stripe on $name', (target) => {
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
      id: `evt_holder_${eventCounter}`,
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

  async function licenceOf(subscriptionId: string) {
    const db = t.deps.database.db;
    const [mirror] = await db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.subscriptionId, subscriptionId));
    const [licence] = mirror?.licenceId
      ? await db.select().from(licences).where(eq(licences.id, mirror.licenceId))
      : [];
    return { mirror, licence };
  }

  it('card: the holder rides in the session’s and subscription’s metadata; the webhook sync makes their licence', async () => {
    const holder = 'dev@globex-holder.test';
    const payer = 'ap@globex-holder.test';
    const trial = await issueTrial(t, holder);
    const { sessionId } = await createCheckout(t, {
      ...pro10YearlyEur,
      licenceHolderEmail: holder,
    });
    const created = fake.requestsTo('POST', '/v1/checkout/sessions').at(-1);
    expect(created?.body).toMatchObject({
      metadata: { licence_holder_email: holder },
      subscription_data: { metadata: { licence_holder_email: holder } },
    });
    // Stripe's customer is the paying one: the holder is no customer.
    expect(JSON.stringify(fake.requestsTo('POST', '/v1/customers'))).not.toContain(holder);

    const subscription = fake.completeCheckoutSession(sessionId, { email: payer });
    await deliver('checkout.session.completed', {
      object: 'checkout.session',
      id: sessionId,
      mode: 'subscription',
      subscription: subscription.id,
    });
    await deliver('customer.subscription.created', {
      object: 'subscription',
      id: subscription.id,
    });
    const { mirror, licence } = await licenceOf(subscription.id);
    expect(licence).toMatchObject({ email: holder, type: 'Paid' });
    expect(mirror?.billingEmail).toBe(payer);
    const [keyMail, ...more] = await mailsTo(t, holder);
    expect(more).toEqual([]);
    expect(keyMail?.kind).toBe('licence-key');
    expect(keyMail?.textBody).toMatch(licenceKeyPattern);
    expect(keyMail?.textBody).toContain(
      `Muster Software GmbH (${payer}) bought this licence for you`,
    );
    const toPayer = await mailsTo(t, payer);
    expect(toPayer.map((mail) => mail.kind)).toEqual(['licence-sent-to-holder']);
    expect(toPayer[0]?.textBody).not.toMatch(licenceKeyPattern);
    // The holder's trial stays theirs, untouched.
    const [untouched] = await t.deps.database.db
      .select()
      .from(licences)
      .where(eq(licences.id, trial.id));
    expect(untouched).toMatchObject({ type: 'Trial', subscriptionId: null });
  });

  it('invoice: the holder in the subscription’s metadata gets the key; the reminders go to the billing address', async () => {
    const holder = 'cli@initech-holder.test';
    const payer = 'payables@initech-holder.test';
    const placed = await placeOrder(t, {
      edition: 'Pro',
      quantity: 10,
      billingPeriod: 'yearly',
      billingCurrency: 'EUR',
      companyName: 'Initech GmbH',
      billingEmail: payer,
      addressLine: 'Hauptstraße 1',
      postalCode: '10115',
      city: 'Berlin',
      country: 'DE',
      licenceHolderEmail: holder,
    });
    expect(placed.status).toBe(201);
    // Nothing at Stripe and nothing to the holder until the billing mailbox confirms.
    expect(await mailsTo(t, holder)).toEqual([]);
    const confirmed = await confirmOrder(t, await confirmationToken(t, payer));
    expect(confirmed.status).toBe(200);
    const order = confirmedOrderSchema.parse(await confirmed.json());
    expect(order.licenceEmail).toBe(holder);
    expect(fake.requestsTo('POST', '/v1/subscriptions').at(-1)?.body).toMatchObject({
      metadata: { licence_holder_email: holder },
    });
    expect(fake.requestsTo('POST', '/v1/customers').at(-1)?.body).toMatchObject({ email: payer });
    const { licence } = await licenceOf(order.subscriptionId);
    expect(licence?.email).toBe(holder);
    const [keyMail] = await mailsTo(t, holder);
    expect(keyMail?.kind).toBe('licence-key');
    expect(keyMail?.textBody).toContain(`Initech GmbH (${payer}) bought this licence for you`);
    const note = (await mailsTo(t, payer)).find((mail) => mail.kind === 'licence-sent-to-holder');
    expect(note?.textBody).toContain(`View your invoice: ${order.invoiceUrl}`);

    t.setNow(new Date(start.getTime() + 30 * DAY));
    fake.updateSubscription(order.subscriptionId, { status: 'past_due' });
    await deliver('customer.subscription.updated', {
      object: 'subscription',
      id: order.subscriptionId,
    });
    expect((await sweepInvoiceReminders(syncDepsOf(t.deps))).reminded).toBe(1);
    expect((await mailsTo(t, payer)).map((mail) => mail.kind)).toContain('invoice-reminder');
    expect((await mailsTo(t, holder)).map((mail) => mail.kind)).toEqual(['licence-key']);
    t.setNow(start);
  });
});
