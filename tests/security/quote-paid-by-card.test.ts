import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { localCheckoutSessions, quotes } from '#server/platform/db/schema.ts';
import { quoteDepsOf } from '#server/billing/quotes/create-quote.ts';
import { readQuoteSummary } from '#server/billing/quotes/read-quote.ts';
import type { CheckoutRequestInput } from '#shared/contracts/checkout.ts';
import { postJson } from '../api/account-support.ts';
import { createCheckout, payLocally, postCheckout, successCard } from '../api/checkout-support.ts';
import { databaseTargets } from '../support/databases.ts';
import { runAdminOn } from '../support/licensing.ts';
import { startStripeTestApp, type StripeTestApp } from '../support/stripe-test-app.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { enterpriseOrder, placeOrder, whatExists } from './support/invoice-orders.ts';

/**
 * Issue 38, invariant "quotes" (decision 214): a quote paid by card stayed open, its accept page
 * offered it again, and an invoice order or a second card checkout could accept it once more.
 * The card checkout now carries the quote's link token; when its payment is recorded (the
 * subscription sync, on both providers) the quote is accepted by card with the subscription, in
 * the same transaction. Then the page says so, an invoice order is refused with 409
 * QuoteAlreadyAccepted, and so is another card checkout.
 */

const start = new Date('2026-06-01T10:00:00Z');
const quoteAnswer = z.object({ number: z.string(), acceptUrl: z.string() });

const enterpriseYearlyEur = (quoteToken: string): CheckoutRequestInput => ({
  edition: 'Enterprise',
  quantity: 25,
  billingPeriod: 'yearly',
  billingCurrency: 'EUR',
  successUrl: 'http://localhost:3000/checkout-success?session_id={CHECKOUT_SESSION_ID}',
  cancelUrl: 'http://localhost:3000/pricing',
  quoteToken,
});

interface World {
  t: TestApp;
  /** Pays a card checkout session as `email`; the subscription id. */
  pay(sessionId: string, email: string): Promise<string>;
  close(): Promise<void>;
}

async function localWorld(target: (typeof databaseTargets)[number]): Promise<World> {
  const t = await createTestApp(target, { now: start });
  return {
    t,
    async pay(sessionId, email) {
      expect((await payLocally(t, sessionId, { email, card: successCard })).status).toBe(303);
      const [session] = await t.deps.database.db
        .select()
        .from(localCheckoutSessions)
        .where(eq(localCheckoutSessions.id, sessionId));
      return session?.subscriptionId ?? '';
    },
    close: () => t.close(),
  };
}

async function stripeWorld(target: (typeof databaseTargets)[number]): Promise<World> {
  const stripe: StripeTestApp = await startStripeTestApp(target, {
    now: start,
    name: 'quote_by_card',
  });
  return {
    t: stripe.t,
    async pay(sessionId, email) {
      const subscription = stripe.fake.completeCheckoutSession(sessionId, { email });
      await stripe.deliver('checkout.session.completed', {
        object: 'checkout.session',
        id: sessionId,
        subscription: subscription.id,
      });
      await stripe.deliver('invoice.paid', {
        object: 'invoice',
        id: `in_${subscription.id}`,
        parent: {
          type: 'subscription_details',
          subscription_details: { subscription: subscription.id },
        },
      });
      return subscription.id;
    },
    close: () => stripe.close(),
  };
}

const worlds = [
  ['local', localWorld],
  ['stripe', stripeWorld],
] as const;

describe.each(databaseTargets)('a quote paid by card on $name', (target) => {
  describe.each(worlds)('with the %s provider', (provider, open) => {
    let world: World;
    beforeAll(async () => {
      world = await open(target);
    });
    afterAll(() => world.close());
    beforeEach(() => world.t.setNow(start));

    async function quoteFor(email: string) {
      const response = await postJson(world.t, '/account/v1/quotes', {
        companyName: 'Card Buyer GmbH',
        emailAddress: email,
        addressLine: 'Hauptstraße 1',
        postalCode: '10115',
        city: 'Berlin',
        country: 'DE',
        edition: 'Enterprise',
        quantity: 25,
        billingPeriod: 'yearly',
        billingCurrency: 'EUR',
      });
      expect(response.status).toBe(201);
      const quote = quoteAnswer.parse(await response.json());
      return {
        number: quote.number,
        token: new URL(quote.acceptUrl).searchParams.get('token') ?? '',
      };
    }

    async function quoteRow(number: string) {
      const [row] = await world.t.deps.database.db
        .select()
        .from(quotes)
        .where(eq(quotes.number, number));
      return row;
    }

    it('paid by card: accepted with its subscription, the page offers nothing, an invoice order and a second card checkout are refused', async () => {
      const { t } = world;
      const quote = await quoteFor(`buyer-${provider}@card-quote.test`);
      const { sessionId } = await createCheckout(t, enterpriseYearlyEur(quote.token));
      // An open checkout accepts nothing: a buyer who leaves it keeps the quote open.
      expect((await quoteRow(quote.number))?.status).toBe('open');

      const subscriptionId = await world.pay(sessionId, `buyer-${provider}@card-quote.test`);
      expect(await quoteRow(quote.number)).toMatchObject({
        status: 'accepted',
        acceptedBy: 'card',
        acceptedSubscriptionId: subscriptionId,
        acceptedOrderId: null,
      });

      // The operator sees how it was accepted.
      expect((await runAdminOn(t, 'quotes', 'list')).out).toContain('accepted (card)');
      // The accept page says it was accepted and paid by card.
      expect(await readQuoteSummary(quoteDepsOf(t.deps), quote.token)).toMatchObject({
        state: 'accepted',
        accepted: { on: '2026-06-01', by: 'card', invoiceNumber: null },
      });

      const before = await whatExists({ t, fake: undefined, close: () => Promise.resolve() });
      const order = await placeOrder(t, {
        ...enterpriseOrder(`ap-${provider}@card-quote.test`),
        quoteToken: quote.token,
      });
      expect(order.status).toBe(409);
      expect(await order.json()).toMatchObject({ Error: 'QuoteAlreadyAccepted' });

      const second = await postCheckout(t, enterpriseYearlyEur(quote.token));
      expect(second.status).toBe(409);
      const body: unknown = await second.json();
      expect(body).toMatchObject({ Error: 'QuoteAlreadyAccepted' });
      expect(JSON.stringify(body)).toContain('already been accepted');
      expect(await whatExists({ t, fake: undefined, close: () => Promise.resolve() })).toEqual(
        before,
      );
      expect(await quoteRow(quote.number)).toMatchObject({
        acceptedBy: 'card',
        acceptedSubscriptionId: subscriptionId,
      });
    });

    it('a card checkout refuses a forged quote link, another plan than the quote’s, and an expired quote', async () => {
      const { t } = world;
      const quote = await quoteFor(`buyer-${provider}@card-checks.test`);
      const forged = await postCheckout(t, enterpriseYearlyEur('Q'.repeat(32)));
      expect(forged.status).toBe(400);
      expect(await forged.json()).toMatchObject({ issues: [{ field: 'quoteToken' }] });
      const malformed = await postCheckout(t, enterpriseYearlyEur('not a token'));
      expect(malformed.status).toBe(400);
      const otherPlan = await postCheckout(t, {
        ...enterpriseYearlyEur(quote.token),
        billingPeriod: 'monthly',
      });
      expect(otherPlan.status).toBe(400);
      expect(await otherPlan.json()).toMatchObject({ issues: [{ field: 'quoteToken' }] });
      t.setNow(new Date(start.getTime() + 40 * 86_400_000));
      const expired = await postCheckout(t, enterpriseYearlyEur(quote.token));
      expect(expired.status).toBe(409);
      expect(await expired.json()).toMatchObject({ Error: 'QuoteExpired' });
      expect((await quoteRow(quote.number))?.status).toBe('open');
    });
  });
});
