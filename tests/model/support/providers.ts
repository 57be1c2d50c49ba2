import { sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { z } from 'zod';
import { runLocalBilling } from '#server/billing/payments/local/local-billing-worker.ts';
import { markLocalInvoicePaid } from '#server/billing/payments/local/local-invoices.ts';
import { priceLookupKey } from '#server/billing/payments/stripe/stripe-price-catalog.ts';
import { handlePaymentEvent, syncDepsOf } from '#server/billing/subscriptions/sync-subscription.ts';
import { browser, payLocally } from '#tests/api/checkout-support.ts';
import type { TestDatabaseTarget } from '#tests/support/databases.ts';
import { startStripeTestApp } from '#tests/support/stripe-test-app.ts';
import { createTestApp, type TestApp } from '#tests/support/test-app.ts';

/**
 * The payment provider as the model test drives it (decision 216): the buyer's side of a card
 * payment, a plan change in the billing portal, a bank transfer for an invoice, time passing at
 * the provider, and, for Stripe, a webhook delivered again. The app is the same either way.
 */
export interface ModelProvider {
  name: 'local' | 'stripe';
  t: TestApp;
  /** The buyer pays a card checkout session; false when nothing was paid. */
  payCard(sessionId: string, email: string): Promise<boolean>;
  /** A plan or quantity change of the subscription in the billing portal; false when refused. */
  changePlan(
    customerId: string,
    subscriptionId: string,
    plan: { edition: 'Starter' | 'Pro' | 'Enterprise'; quantity: number },
  ): Promise<boolean>;
  /** The buyer's transfer arrives for the oldest open invoice of the subscription. */
  payInvoice(subscriptionId: string): Promise<boolean>;
  /** The clock moved: the provider's own jobs run (local renewals; Stripe's clock). */
  timePassed(): Promise<void>;
  /** Stripe delivers one of the events it sent before once more; the local provider has none. */
  redeliver(index: number): Promise<boolean>;
  close(): Promise<void>;
}

const card = { cardNumber: '4242 4242 4242 4242', cardExpiry: '12 / 34', cardCvc: '123' };
const env = {
  LICENSE_VALIDATION_CACHE_SECONDS: '0',
  LICENSE_VALIDATION_RATE_LIMIT: '0',
  // Decision 230 as in production: a company's first order waits for finance, and so does an
  // Enterprise order (the model's Pro orders are below this net amount, its Enterprise ones above).
  INVOICE_APPROVAL_FIRST_ORDER: 'review',
  INVOICE_APPROVAL_ABOVE: 'EUR:20000',
};

export async function localProvider(target: TestDatabaseTarget, now: Date): Promise<ModelProvider> {
  const t = await createTestApp(target, { now, env });
  return {
    name: 'local',
    t,
    async payCard(sessionId, email) {
      return (await payLocally(t, sessionId, { email, card })).status === 303;
    },
    async changePlan(customerId, subscriptionId, plan) {
      const { url } = await t.deps.payments.createBillingPortalSession({
        customerId,
        returnUrl: 'http://localhost:3000/',
      });
      const changed = await browser(
        t,
        `${new URL(url).pathname}/subscriptions/${subscriptionId}/plan`,
        { edition: plan.edition, quantity: String(plan.quantity), billingPeriod: 'monthly' },
      );
      return changed.headers.get('location')?.includes('done=plan-changed') ?? false;
    },
    async payInvoice(subscriptionId) {
      const result: unknown = await t.deps.database.db.execute(
        sql`select id from local_invoices where subscription_id = ${subscriptionId} and status = 'open' order by created_at limit 1`,
      );
      const [invoice] = z
        .object({ rows: z.array(z.object({ id: z.string() })) })
        .parse(result).rows;
      if (!invoice) return false;
      const paid = await markLocalInvoicePaid(
        { db: t.deps.database.db, clock: t.deps.clock },
        invoice.id,
      );
      if (!paid.ok) return false;
      for (const event of paid.events) await handlePaymentEvent(syncDepsOf(t.deps), event);
      return true;
    },
    async timePassed() {
      await runLocalBilling(t.deps);
    },
    redeliver: async () => false,
    close: () => t.close(),
  };
}

interface SentEvent {
  payload: string;
}

export async function stripeProvider(
  target: TestDatabaseTarget,
  now: Date,
): Promise<ModelProvider> {
  const stripe = await startStripeTestApp(target, { now, name: 'model', env });
  const { t, fake } = stripe;
  const signer = new Stripe('sk_test_model');
  const sent: SentEvent[] = [];
  let counter = 0;

  /** Signs and delivers an event as Stripe would; kept for redelivery. */
  async function deliver(payload: string): Promise<void> {
    const header = signer.webhooks.generateTestHeaderString({
      payload,
      secret: 'whsec_model_secret',
    });
    const response = await t.app.request('/account/v1/webhooks/stripe', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': header },
      body: payload,
    });
    if (response.status !== 200) throw new Error(`webhook answered ${response.status}`);
  }
  async function send(type: string, object: Record<string, unknown>): Promise<void> {
    counter++;
    const payload = JSON.stringify({
      id: `evt_model_${counter}`,
      object: 'event',
      type,
      created: Math.floor(t.deps.clock().getTime() / 1000),
      data: { object },
    });
    sent.push({ payload });
    await deliver(payload);
  }
  const subscriptionEvents = async (subscriptionId: string) => {
    await send('customer.subscription.updated', { object: 'subscription', id: subscriptionId });
  };
  const invoicePaid = async (subscriptionId: string, invoiceId: string) => {
    await send('invoice.paid', {
      object: 'invoice',
      id: invoiceId,
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: subscriptionId },
      },
    });
  };

  return {
    name: 'stripe',
    t,
    async payCard(sessionId, email) {
      const subscription = fake.completeCheckoutSession(sessionId, { email });
      await send('checkout.session.completed', {
        object: 'checkout.session',
        id: sessionId,
        subscription: subscription.id,
      });
      await subscriptionEvents(subscription.id);
      await invoicePaid(subscription.id, `in_${subscription.id}`);
      return true;
    },
    async changePlan(_customerId, subscriptionId, plan) {
      const subscription = fake.subscriptions.get(subscriptionId);
      const item = subscription?.items.data[0];
      const price = [...fake.prices.values()].find(
        (candidate) => candidate.lookup_key === priceLookupKey(plan.edition, 'monthly', 'USD'),
      );
      if (!subscription || !item || !price || subscription.status !== 'active') return false;
      fake.updateSubscription(subscriptionId, {
        items: { object: 'list', data: [{ ...item, price, quantity: plan.quantity }] },
      });
      await subscriptionEvents(subscriptionId);
      return true;
    },
    async payInvoice(subscriptionId) {
      const invoice = [...fake.invoices.values()].find(
        (candidate) => candidate.subscription === subscriptionId && candidate.status === 'open',
      );
      if (!invoice) return false;
      fake.payInvoice(invoice.id);
      await invoicePaid(subscriptionId, invoice.id);
      return true;
    },
    async timePassed() {
      fake.setNow(Math.floor(t.deps.clock().getTime() / 1000));
    },
    async redeliver(index) {
      const event = sent[index % Math.max(sent.length, 1)];
      if (!event) return false;
      await deliver(event.payload);
      return true;
    },
    close: () => stripe.close(),
  };
}
