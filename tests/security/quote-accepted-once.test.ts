import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { invoiceOrders, quotes } from '#server/platform/db/schema.ts';
import { PaymentError } from '#server/billing/subscriptions/payment-errors.ts';
import { quoteDepsOf } from '#server/billing/quotes/create-quote.ts';
import { readQuoteSummary } from '#server/billing/quotes/read-quote.ts';
import { postJson } from '../api/account-support.ts';
import { databaseTargets } from '../support/databases.ts';
import { runAdminOn } from '../support/licensing.ts';
import {
  confirmationToken,
  confirmOrder,
  enterpriseOrder,
  openWorld,
  orderAndConfirm,
  placeOrder,
  providers,
  whatExists,
  type OrderWorld,
} from './support/invoice-orders.ts';

/**
 * Issue 25, item 4 (decision 154): a quote is accepted once. An invoice order carries the quote's
 * accept-link token; the confirmation that creates the subscription claims the quote with a
 * conditional update, so a second order — one after the other or at the same moment — is
 * refused with a clear message and creates no second licence or invoice. The accept page and
 * `quotes list` / `quotes show` say the quote is accepted and what it bought.
 */

const start = new Date('2026-03-01T10:00:00Z');
const quoteAnswer = z.object({ number: z.string(), acceptUrl: z.string() });

describe.each(databaseTargets)('a quote is accepted once on $name', (target) => {
  describe.each(providers)('with the %s provider', (provider) => {
    let world: OrderWorld;
    beforeAll(async () => {
      world = await openWorld(target, provider, start);
    });
    afterAll(() => world.close());
    beforeEach(() => world.t.setNow(start));

    /** A quote for Enterprise 25, yearly in EUR, e-mailed to `email`: its number and link token. */
    async function quoteFor(email: string) {
      const response = await postJson(world.t, '/account/v1/quotes', {
        companyName: 'Quote Buyer GmbH',
        emailAddress: email,
        addressLine: 'Hauptstraße 1',
        postalCode: '10115',
        city: 'Berlin',
        country: 'DE',
        purchaseOrder: 'PO-Q-1',
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

    const orderFromQuote = (email: string, token: string) => ({
      ...enterpriseOrder(email),
      quoteToken: token,
    });

    it('accepted, then ordered again from its link: refused, one licence and one invoice', async () => {
      const { t } = world;
      const quote = await quoteFor(`buyer-${provider}@seq-quote.test`);
      const before = await whatExists(world);
      const order = await orderAndConfirm(
        t,
        orderFromQuote(`ap-${provider}@seq-quote.test`, quote.token),
      );

      const again = await placeOrder(
        t,
        orderFromQuote(`other-${provider}@seq-quote.test`, quote.token),
      );
      expect(again.status).toBe(409);
      const body: unknown = await again.json();
      expect(body).toMatchObject({ Error: 'QuoteAlreadyAccepted' });
      expect(JSON.stringify(body)).toContain('already been accepted');

      const after = await whatExists(world);
      expect(after.licences).toBe(before.licences + 1);
      expect(after.providerSubscriptions).toBe(before.providerSubscriptions + 1);
      expect(after.sentInvoices).toBe(before.sentInvoices + 1);

      // The accept page says so and names what was bought.
      const summary = await readQuoteSummary(quoteDepsOf(t.deps), quote.token);
      expect(summary).toMatchObject({
        state: 'accepted',
        edition: 'Enterprise',
        quantity: 25,
        accepted: { on: '2026-03-01', invoiceNumber: order.invoiceNumber },
      });
      // The operator sees the status.
      const listed = await runAdminOn(t, 'quotes', 'list');
      expect(listed.out).toMatch(/^NUMBER\s+DATE\s+VALID UNTIL\s+STATUS\s/);
      expect(listed.out).toContain(`accepted (${order.invoiceNumber})`);
      const shown = await runAdminOn(t, 'quotes', 'show', quote.number);
      expect(shown.out).toContain(`Status:          accepted (${order.invoiceNumber})`);
      expect(shown.out).toContain(`Subscription:    ${order.subscriptionId}`);
      const json = await runAdminOn(t, 'quotes', 'show', quote.number, '--json');
      expect(JSON.parse(json.out)).toMatchObject({ status: 'accepted' });
    });

    it('two orders from one quote confirmed at the same moment: exactly one wins', async () => {
      const { t } = world;
      const quote = await quoteFor(`buyer-${provider}@race-quote.test`);
      const emails = [`one-${provider}@race-a-quote.test`, `two-${provider}@race-b-quote.test`];
      // Two orders placed at the same moment both wait for their links.
      const placed = await Promise.all(
        emails.map((email) => placeOrder(t, orderFromQuote(email, quote.token))),
      );
      expect(placed.map((answer) => answer.status)).toEqual([201, 201]);
      const tokens = await Promise.all(emails.map((email) => confirmationToken(t, email)));
      const before = await whatExists(world);

      const answers = await Promise.all(tokens.map((token) => confirmOrder(t, token)));
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      const loser = answers.find((answer) => answer.status === 409);
      expect(await loser?.json()).toMatchObject({ Error: 'QuoteAlreadyAccepted' });

      const after = await whatExists(world);
      expect(after.licences).toBe(before.licences + 1);
      expect(after.providerSubscriptions).toBe(before.providerSubscriptions + 1);
      expect(after.sentInvoices).toBe(before.sentInvoices + 1);
      const [row] = await t.deps.database.db
        .select()
        .from(quotes)
        .where(eq(quotes.number, quote.number));
      expect(row?.status).toBe('accepted');
      // The losing order is cancelled: it holds neither its address nor the quote.
      const orders = await t.deps.database.db
        .select()
        .from(invoiceOrders)
        .where(eq(invoiceOrders.quoteNumber, quote.number));
      expect(orders.map((order) => order.status).sort()).toEqual(['cancelled', 'confirmed']);
    });

    it('a provider failure at confirmation gives the order and the quote back', async () => {
      const { t } = world;
      const quote = await quoteFor(`buyer-${provider}@outage-quote.test`);
      const email = `ap-${provider}@outage-quote.test`;
      expect((await placeOrder(t, orderFromQuote(email, quote.token))).status).toBe(201);
      const token = await confirmationToken(t, email);
      const payments = t.deps.payments;
      t.deps.payments = {
        ...payments,
        createInvoiceSubscription: () =>
          Promise.reject(new PaymentError('Unavailable', 'provider down')),
      };
      try {
        const failed = await confirmOrder(t, token);
        expect(failed.status).toBe(503);
        expect(await failed.json()).toMatchObject({ Error: 'PaymentProviderUnavailable' });
      } finally {
        t.deps.payments = payments;
      }
      const [row] = await t.deps.database.db
        .select()
        .from(quotes)
        .where(eq(quotes.number, quote.number));
      expect(row?.status).toBe('open');
      // The same link works once the provider is back.
      expect((await confirmOrder(t, token)).status).toBe(200);
      expect(
        (await t.deps.database.db.select().from(quotes).where(eq(quotes.number, quote.number)))[0]
          ?.status,
      ).toBe('accepted');
    });

    it('refuses a forged quote link, another plan than the quote’s, and an expired quote', async () => {
      const { t } = world;
      const quote = await quoteFor(`buyer-${provider}@checks-quote.test`);
      const email = `ap-${provider}@checks-quote.test`;
      const before = await whatExists(world);
      const forged = await placeOrder(t, orderFromQuote(email, 'Q'.repeat(32)));
      expect(forged.status).toBe(400);
      expect(await forged.json()).toMatchObject({ issues: [{ field: 'quoteToken' }] });
      const otherPlan = await placeOrder(t, {
        ...orderFromQuote(email, quote.token),
        edition: 'Pro',
        quantity: 10,
      });
      expect(otherPlan.status).toBe(400);
      t.setNow(new Date(start.getTime() + 40 * 86_400_000));
      const expired = await placeOrder(t, orderFromQuote(email, quote.token));
      expect(expired.status).toBe(409);
      expect(await expired.json()).toMatchObject({ Error: 'QuoteExpired' });
      expect(await whatExists(world)).toEqual(before);
    });
  });
});
