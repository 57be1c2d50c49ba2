import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { emailOutbox, licences } from '#server/platform/db/schema.ts';
import { FREE_LICENCES_PER_ADDRESS_PER_DAY as limit } from '#server/licensing/licences/free-licence-repository.ts';
import type { CheckoutRequestInput } from '#shared/contracts/checkout.ts';
import { createCheckout, licencesOf, payLocally, pro10YearlyEur } from '../api/checkout-support.ts';
import { databaseTargets } from '../support/databases.ts';
import type { StripeFake } from '../support/stripe-fake.ts';
import { startStripeTestApp, type StripeTestApp } from '../support/stripe-test-app.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

/**
 * Issue 25, smaller item 1: a free Starter checkout mailed a licence key to any address, as often
 * as asked (8 checkouts, 8 e-mails to one mailbox). Now at most 3 a day per normalized recipient
 * (decision 158): the local checkout page answers 429 with Retry-After before anything is
 * written; a Stripe checkout over the limit gets no licence and is cancelled.
 */

const start = new Date('2026-01-15T10:00:00Z');
const starter: CheckoutRequestInput = {
  ...pro10YearlyEur,
  edition: 'Starter',
  quantity: 3,
  billingPeriod: 'monthly',
};
/** One mailbox, spelt differently each time. */
const spellings = (n: number) => (n % 2 ? `Target+${n}@Acme.test` : `target+x${n}@acme.TEST`);

/** A day passes for the target's licences (their `created_at` is the database's own time). */
async function aDayLater(t: TestApp) {
  await t.deps.database.db
    .update(licences)
    .set({ createdAt: sql`${licences.createdAt} - interval '25 hours'` })
    .where(eq(licences.emailNormalized, 'target@acme.test'));
}

async function licenceMailsToTarget(t: TestApp) {
  const rows = await t.deps.database.db.select().from(emailOutbox);
  return rows.filter(
    (row) => row.kind === 'licence-key' && row.toAddress.toLowerCase().startsWith('target'),
  );
}

describe.each(databaseTargets)('free licence e-mails per recipient on $name', (target) => {
  describe('local provider', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(target, { now: start });
    });
    afterAll(() => t.close());

    it(`mails ${limit} free keys to one mailbox a day, then answers 429 and writes nothing`, async () => {
      for (let n = 0; n < limit; n++) {
        const { sessionId } = await createCheckout(t, starter);
        expect((await payLocally(t, sessionId, { email: spellings(n) })).status).toBe(303);
      }
      const { sessionId } = await createCheckout(t, starter);
      const refused = await payLocally(t, sessionId, { email: 'TARGET@acme.test' });
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get('Retry-After'));
      expect(retryAfter).toBeGreaterThan(86_000);
      expect(retryAfter).toBeLessThanOrEqual(86_400);
      expect(await refused.text()).toContain('Too many free licences for this address.');
      expect(await licencesOf(t, 'target@acme.test')).toHaveLength(limit);
      expect(await licenceMailsToTarget(t)).toHaveLength(limit);

      // Another mailbox is not affected; the same one is again the next day.
      const other = await createCheckout(t, starter);
      expect((await payLocally(t, other.sessionId, { email: 'other@acme.test' })).status).toBe(303);
      await aDayLater(t);
      const nextDay = await createCheckout(t, starter);
      expect((await payLocally(t, nextDay.sessionId, { email: 'target@acme.test' })).status).toBe(
        303,
      );
      expect(await licenceMailsToTarget(t)).toHaveLength(limit + 1);
    });
  });

  describe('Stripe webhooks', () => {
    let stripe: StripeTestApp;
    let t: TestApp;
    let fake: StripeFake;

    beforeAll(async () => {
      stripe = await startStripeTestApp(target, { now: start, name: 'free_licence_mails' });
      ({ t, fake } = stripe);
    });
    afterAll(() => stripe.close());

    async function buyFree(email: string) {
      const { sessionId } = await createCheckout(t, starter);
      const subscription = fake.completeCheckoutSession(sessionId, { email });
      // Stripe sends a checkout's events at about the same moment.
      await Promise.all([
        stripe.deliver('checkout.session.completed', {
          object: 'checkout.session',
          id: sessionId,
          subscription: subscription.id,
        }),
        stripe.deliver('customer.subscription.created', {
          object: 'subscription',
          id: subscription.id,
        }),
      ]);
      return subscription.id;
    }

    it(`issues ${limit} free licences to one mailbox a day; the next is cancelled, unmailed`, async () => {
      for (let n = 0; n < limit; n++) await buyFree(spellings(n));
      expect(await licenceMailsToTarget(t)).toHaveLength(limit);

      const refused = await buyFree('TARGET@acme.test');
      expect(await licencesOf(t, 'target@acme.test')).toHaveLength(limit);
      expect(await licenceMailsToTarget(t)).toHaveLength(limit);
      expect(fake.subscriptions.get(refused)?.status).toBe('canceled');

      await buyFree('other@acme.test');
      expect(await licencesOf(t, 'other@acme.test')).toHaveLength(1);
    });

    it(`five free checkouts for one mailbox at the same moment: exactly ${limit} licences`, async () => {
      const ids = await Promise.all([1, 2, 3, 4, 5].map((n) => buyFree(`Crowd+${n}@acme.test`)));
      expect(await licencesOf(t, 'crowd@acme.test')).toHaveLength(limit);
      const cancelled = ids.filter((id) => fake.subscriptions.get(id)?.status === 'canceled');
      expect(cancelled).toHaveLength(5 - limit);
    });
  });
});
