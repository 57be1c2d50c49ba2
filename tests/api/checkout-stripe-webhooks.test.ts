import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentDocuments, paymentEvents } from '#server/platform/db/schema.ts';
import { createStripeClient } from '#server/billing/payments/stripe/stripe-client.ts';
import { syncStripeCatalog } from '#server/billing/payments/stripe/sync-stripe-catalog.ts';
import { readCheckoutStatus } from '#server/billing/checkout/read-checkout-status.ts';
import { syncDepsOf } from '#server/billing/subscriptions/sync-subscription.ts';
import { databaseTargets } from '../support/databases.ts';
import { startStripeFake, type StripeFake } from '../support/stripe-fake.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import {
  createCheckout,
  issueTrial,
  licencesOf,
  mailsTo,
  pro10YearlyEur,
} from './checkout-support.ts';

const secretKey = 'sk_test_checkout_webhooks';
const webhookSecret = 'whsec_checkout_webhooks_secret';
const start = new Date('2026-01-15T10:00:00Z');
const epoch = (date: Date) => Math.floor(date.getTime() / 1000);

/** Deterministic shuffle (a fixed seed keeps failures reproducible). */
function shuffled<T>(items: T[], seed: number): T[] {
  const copy = [...items];
  let state = seed;
  for (let i = copy.length - 1; i > 0; i--) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = state % (i + 1);
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

describe.each(databaseTargets)('Stripe webhooks on $name', (target) => {
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

  function event(type: string, object: Record<string, unknown>) {
    eventCounter++;
    return {
      id: `evt_test_${eventCounter}`,
      object: 'event',
      type,
      created: epoch(t.deps.clock()),
      data: { object },
    };
  }
  const subscriptionEvent = (type: string, id: string) =>
    event(type, { object: 'subscription', id });
  const invoiceEvent = (type: string, subscriptionId: string) =>
    event(type, {
      object: 'invoice',
      id: `in_${eventCounter}`,
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: subscriptionId },
      },
    });

  async function deliver(body: object, secret = webhookSecret): Promise<Response> {
    const payload = JSON.stringify(body);
    const header = signer.webhooks.generateTestHeaderString({ payload, secret });
    return t.app.request('/account/v1/webhooks/stripe', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': header },
      body: payload,
    });
  }

  async function deliverAll(events: object[], seed: number): Promise<void> {
    // Every event twice, in shuffled order; one pair at the same time.
    const deliveries = shuffled([...events, ...events], seed);
    const [first, ...rest] = deliveries;
    if (first) {
      const together = await Promise.all([deliver(first), deliver(first)]);
      expect(together.map((r) => r.status)).toEqual([200, 200]);
    }
    for (const delivery of rest) expect((await deliver(delivery)).status).toBe(200);
  }

  async function buy(email: string, request = pro10YearlyEur) {
    const { sessionId, url } = await createCheckout(t, request);
    expect(url).toMatch(/^https:\/\/checkout\.stripe\.test\//);
    const subscription = fake.completeCheckoutSession(sessionId, { email });
    return { sessionId, subscription };
  }

  const purchaseEvents = (sessionId: string, subscriptionId: string) => [
    event('checkout.session.completed', {
      object: 'checkout.session',
      id: sessionId,
      mode: 'subscription',
      subscription: subscriptionId,
    }),
    subscriptionEvent('customer.subscription.created', subscriptionId),
    invoiceEvent('invoice.paid', subscriptionId),
  ];

  it('a purchase delivered twice, shuffled, ends in one Paid licence and one key e-mail', async () => {
    const { sessionId, subscription } = await buy('ops@acme.test');
    const events = purchaseEvents(sessionId, subscription.id);
    await deliverAll(events, 7);
    const owned = await licencesOf(t, 'ops@acme.test');
    expect(owned).toHaveLength(1);
    expect(owned[0]).toMatchObject({
      type: 'Paid',
      edition: 'Pro',
      quantity: 10,
      status: 'Active',
      customerId: subscription.customer,
      subscriptionId: subscription.id,
      subscriptionStatus: 'active',
      expiresAt: new Date('2027-01-15T10:00:00Z'),
    });
    const keyMails = await mailsTo(t, 'ops@acme.test');
    expect(keyMails.map((mail) => mail.kind)).toEqual(['licence-key']);
    // Stripe's invoice of the payment is linked; with Stripe the product numbers none itself.
    expect(keyMails[0]?.textBody).toContain(
      `View your invoice: https://invoice.stripe.test/i/${subscription.latest_invoice}`,
    );
    expect(await t.deps.database.db.select().from(paymentDocuments)).toEqual([]);
    const recorded = await t.deps.database.db.select().from(paymentEvents);
    const ids = events.map((e) => e.id);
    expect(recorded.filter((row) => ids.includes(row.eventId))).toHaveLength(3);
    expect(await readCheckoutStatus(syncDepsOf(t.deps), sessionId)).toMatchObject({
      state: 'issued',
      email: 'ops@acme.test',
    });
  });

  it('walks failure, lapse, reactivation and cancellation with each state change in any order', async () => {
    const email = 'lifecycle@acme.test';
    const { sessionId, subscription } = await buy(email);
    await deliverAll(purchaseEvents(sessionId, subscription.id), 11);
    const kinds = async () => (await mailsTo(t, email)).map((mail) => mail.kind);
    const licence = async () => (await licencesOf(t, email))[0];

    fake.updateSubscription(subscription.id, { status: 'past_due' });
    await deliverAll(
      [
        invoiceEvent('invoice.payment_failed', subscription.id),
        subscriptionEvent('customer.subscription.updated', subscription.id),
      ],
      3,
    );
    expect(await licence()).toMatchObject({ status: 'Active', subscriptionStatus: 'past_due' });

    t.setNow(new Date('2026-02-01T00:00:00Z'));
    fake.updateSubscription(subscription.id, { status: 'unpaid' });
    await deliverAll(
      [
        invoiceEvent('invoice.payment_failed', subscription.id),
        subscriptionEvent('customer.subscription.updated', subscription.id),
      ],
      5,
    );
    expect(await licence()).toMatchObject({
      status: 'Deactivated',
      deactivatedAt: new Date('2026-02-01T00:00:00Z'),
    });

    t.setNow(new Date('2026-02-10T00:00:00Z'));
    fake.updateSubscription(subscription.id, { status: 'active' });
    await deliverAll(
      [
        invoiceEvent('invoice.paid', subscription.id),
        subscriptionEvent('customer.subscription.updated', subscription.id),
      ],
      9,
    );
    expect(await licence()).toMatchObject({ status: 'Active', deactivatedAt: null });

    fake.updateSubscription(subscription.id, { cancel_at_period_end: true });
    await deliverAll([subscriptionEvent('customer.subscription.updated', subscription.id)], 13);
    expect(await licence()).toMatchObject({ status: 'Active' });

    t.setNow(new Date('2027-01-15T10:00:00Z'));
    fake.updateSubscription(subscription.id, {
      status: 'canceled',
      ended_at: epoch(new Date('2027-01-15T10:00:00Z')),
      cancellation_details: { reason: 'cancellation_requested' },
    });
    const deleted = subscriptionEvent('customer.subscription.deleted', subscription.id);
    // An old "created" event arriving after the end changes nothing: the re-read wins.
    const late = subscriptionEvent('customer.subscription.created', subscription.id);
    await deliverAll([deleted, late], 17);
    expect(await licence()).toMatchObject({
      status: 'Cancelled',
      expiresAt: new Date('2027-01-15T10:00:00Z'),
    });
    expect(await kinds()).toEqual([
      'licence-key',
      'payment-failed',
      'licence-deactivated',
      'licence-reactivated',
      'cancellation-confirmed',
    ]);
    t.setNow(start);
  });

  it('converts the trial named at checkout: customer created once for its address', async () => {
    const trial = await issueTrial(t, 'trialist@acme.test');
    const creates = fake.requestsTo('POST', '/v1/customers').length;
    const { sessionId } = await createCheckout(t, {
      ...pro10YearlyEur,
      trialLicenseKeyToConvert: trial.key,
    });
    expect(fake.requestsTo('POST', '/v1/customers')).toHaveLength(creates + 1);
    const session = fake.sessions.get(sessionId);
    expect(session?.customer).toMatch(/^cus_/);
    expect(session?.metadata).toMatchObject({ licence_id_to_convert: trial.id });
    const subscription = fake.completeCheckoutSession(sessionId, { email: 'trialist@acme.test' });
    expect(subscription.metadata).toMatchObject({ licence_id_to_convert: trial.id });
    await deliverAll(purchaseEvents(sessionId, subscription.id), 19);
    const owned = await licencesOf(t, 'trialist@acme.test');
    expect(owned).toHaveLength(1);
    expect(owned[0]).toMatchObject({ id: trial.id, type: 'Paid', subscriptionId: subscription.id });
    expect((await mailsTo(t, 'trialist@acme.test')).map((mail) => mail.kind)).toEqual([
      'trial-converted',
    ]);
  });

  it('gives a company’s checkout a Stripe customer of its own with the trial’s address, not an earlier one (decision 219 amends 091)', async () => {
    // A first checkout without a key whose payment never completed: Stripe made the customer
    // (address as typed), no licence was issued, so the address may still start a trial.
    const abandoned = await buy('Returning.Buyer@Acme.test', {
      ...pro10YearlyEur,
      billingCurrency: 'USD',
    });
    fake.updateSubscription(abandoned.subscription.id, { status: 'incomplete_expired' });
    await deliverAll(purchaseEvents(abandoned.sessionId, abandoned.subscription.id), 29);
    expect(await licencesOf(t, 'returning.buyer@acme.test')).toEqual([]);

    const trial = await issueTrial(t, 'Returning.Buyer@Acme.test');
    const creates = fake.requestsTo('POST', '/v1/customers').length;
    const { sessionId } = await createCheckout(t, {
      ...pro10YearlyEur,
      billingCurrency: 'USD',
      trialLicenseKeyToConvert: trial.key,
    });
    // The customer carries the company, address and VAT the checkout was taxed for.
    expect(fake.requestsTo('POST', '/v1/customers')).toHaveLength(creates + 1);
    const customerId = fake.sessions.get(sessionId)?.customer ?? '';
    expect(customerId).not.toBe(abandoned.subscription.customer);
    expect(fake.customers.get(customerId)).toMatchObject({
      email: 'returning.buyer@acme.test',
      name: 'Muster Software GmbH',
    });

    const subscription = fake.completeCheckoutSession(sessionId, {
      email: 'Returning.Buyer@Acme.test',
    });
    await deliverAll(purchaseEvents(sessionId, subscription.id), 31);
    expect((await licencesOf(t, 'returning.buyer@acme.test'))[0]).toMatchObject({
      id: trial.id,
      type: 'Paid',
      customerId,
    });
  });

  it('cancels a Starter (Free) licence at once when Stripe reports cancel at period end', async () => {
    const { sessionId, subscription } = await buy('starter@acme.test', {
      ...pro10YearlyEur,
      edition: 'Starter',
      quantity: 3,
      billingPeriod: 'monthly',
    });
    expect(fake.requestsTo('POST', '/v1/checkout/sessions').at(-1)?.body).toMatchObject({
      payment_method_collection: 'if_required',
    });
    await deliverAll(purchaseEvents(sessionId, subscription.id), 23);
    expect((await licencesOf(t, 'starter@acme.test'))[0]).toMatchObject({ type: 'Free' });
    fake.updateSubscription(subscription.id, { cancel_at_period_end: true });
    expect(
      (await deliver(subscriptionEvent('customer.subscription.updated', subscription.id))).status,
    ).toBe(200);
    expect(fake.requestsTo('DELETE', `/v1/subscriptions/${subscription.id}`)).toHaveLength(1);
    expect((await licencesOf(t, 'starter@acme.test'))[0]).toMatchObject({ status: 'Cancelled' });
    const mails = await mailsTo(t, 'starter@acme.test');
    expect(mails.map((mail) => mail.kind)).toEqual(['licence-key', 'cancellation-confirmed']);
    expect(mails[1]?.textBody).toContain('the licence key no longer works');
  });

  it('refuses a wrong signature and records nothing', async () => {
    const before = (await t.deps.database.db.select().from(paymentEvents)).length;
    const forged = await deliver(
      subscriptionEvent('customer.subscription.updated', 'sub_x'),
      'whsec_wrong',
    );
    expect(forged.status).toBe(400);
    expect((await forged.json()).Error).toBe('InvalidRequest');
    const unsigned = await t.app.request('/account/v1/webhooks/stripe', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(unsigned.status).toBe(400);
    expect((await t.deps.database.db.select().from(paymentEvents)).length).toBe(before);
  });

  it('records and ignores events about no or unknown subscriptions', async () => {
    const other = await deliver(event('customer.created', { object: 'customer', id: 'cus_1' }));
    expect(await other.json()).toEqual({ received: true, outcome: 'ignored' });
    const unknown = await deliver(subscriptionEvent('customer.subscription.updated', 'sub_nope'));
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toEqual({ received: true, outcome: 'ignored' });
    const customerEvent = event('customer.created', { object: 'customer', id: 'cus_2' });
    expect(await (await deliver(customerEvent)).json()).toEqual({
      received: true,
      outcome: 'ignored',
    });
    expect(await (await deliver(customerEvent)).json()).toEqual({
      received: true,
      outcome: 'duplicate',
    });
  });
});
