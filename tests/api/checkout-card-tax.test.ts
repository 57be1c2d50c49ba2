import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { localCheckoutSessions, paymentDocuments, quotes } from '#server/platform/db/schema.ts';
import { paymentDocumentSchema } from '#server/billing/documents/payment-document.ts';
import { formatMinorAmount } from '#server/billing/payments/local/local-billing.ts';
import type { CheckoutRequestInput } from '#shared/contracts/checkout.ts';
import { calculatePrice } from '#shared/pricing/index.ts';
import { postJson } from './account-support.ts';
import {
  browser,
  cancelUrl,
  createCheckout,
  germanCompany,
  payLocally,
  postCheckout,
  successCard,
  successUrl,
} from './checkout-support.ts';
import { databaseTargets } from '../support/databases.ts';
import { startStripeTestApp, type StripeTestApp } from '../support/stripe-test-app.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

/**
 * Issue 39, item 2 (decision 219): the card checkout asks what the quote asks and taxes by the
 * same rule, shown before paying; a quote paid by card is charged its total; the receipt names
 * the company, its address, its VAT ID and the quote. On the old code the checkout refused the
 * buyer's fields (400) and charged 19 % German VAT to everyone.
 */

const start = new Date('2026-03-02T10:00:00Z');
const pro10 = calculatePrice({ size: 10, billingPeriod: 'yearly', currency: 'EUR' });
const netCents = pro10.selected.total * 100;
const grossAt19 = netCents + Math.round(netCents * 0.19);

const order = {
  edition: 'Pro',
  quantity: 10,
  billingPeriod: 'yearly',
  billingCurrency: 'EUR',
  successUrl,
  cancelUrl,
} as const;

const french = {
  companyName: 'Exemple SA',
  addressLine: '1 rue de Rivoli',
  postalCode: '75001',
  city: 'Paris',
  country: 'FR',
  vatId: 'FR40303265045',
} as const;

const american = {
  companyName: 'Acme Inc.',
  addressLine: '1 Market St',
  postalCode: '94105',
  city: 'San Francisco',
  state: 'CA',
  country: 'US',
} as const;

async function errorFields(response: Response): Promise<string[]> {
  const body = z
    .object({ issues: z.array(z.object({ field: z.string() })).optional() })
    .parse(await response.json());
  return (body.issues ?? []).map((entry) => entry.field);
}

async function sessionCount(t: TestApp): Promise<number> {
  return (await t.deps.database.db.select().from(localCheckoutSessions)).length;
}

describe.each(databaseTargets)('card checkout taxed like the quote on $name', (target) => {
  describe('with the test provider', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(target, { now: start });
    });
    afterAll(() => t.close());
    beforeEach(() => t.setNow(start));

    async function buy(request: CheckoutRequestInput, email: string) {
      const { sessionId } = await createCheckout(t, request);
      const page = await (await browser(t, `/billing/local/checkout/${sessionId}`)).text();
      expect((await payLocally(t, sessionId, { email, card: successCard })).status).toBe(303);
      const [session] = await t.deps.database.db
        .select()
        .from(localCheckoutSessions)
        .where(eq(localCheckoutSessions.id, sessionId));
      const [document] = await t.deps.database.db
        .select()
        .from(paymentDocuments)
        .where(eq(paymentDocuments.subscriptionId, session?.subscriptionId ?? ''))
        .orderBy(asc(paymentDocuments.createdAt));
      return { page, document: paymentDocumentSchema.parse(document?.document) };
    }

    it('a German company: 19 % on the payment page and the receipt, which names it', async () => {
      const { page, document } = await buy({ ...order, ...germanCompany }, 'de@card-tax.test');
      expect(page).toContain('VAT 19 %');
      expect(page).toContain(`Pay ${formatMinorAmount(grossAt19, 'EUR')}`);
      expect(page).toContain('Muster Software GmbH');
      expect(document).toMatchObject({
        kind: 'receipt',
        netMinor: netCents,
        grossMinor: grossAt19,
        vat: { case: 'domestic', ratePercent: 19 },
        buyer: {
          companyName: 'Muster Software GmbH',
          addressLines: ['Hauptstraße 1', '10115 Berlin', 'Germany'],
          country: 'DE',
        },
      });
    });

    it('a French company whose VAT ID VIES confirms: reverse charge before and after paying', async () => {
      const { page, document } = await buy({ ...order, ...french }, 'fr@card-tax.test');
      expect(page).toContain('VAT 0 % (reverse charge)');
      expect(page).toContain('VAT ID FR40303265045');
      expect(document).toMatchObject({
        grossMinor: netCents,
        vat: { case: 'reverse-charge', ratePercent: 0 },
        buyer: { companyName: 'Exemple SA', vatId: 'FR40303265045', country: 'FR' },
      });
      expect(document.buyer.vatIdConfirmation?.consultationNumber).toMatch(/\S/);
    });

    it('a US company: no German VAT, the address with its state as the US post writes it', async () => {
      const { page, document } = await buy(
        { ...order, billingCurrency: 'USD', ...american },
        'us@card-tax.test',
      );
      expect(page).toContain('VAT 0 % (not taxable in Germany)');
      expect(page).toContain('San Francisco, CA 94105');
      expect(document).toMatchObject({
        vat: { case: 'outside-eu', ratePercent: 0 },
        buyer: {
          companyName: 'Acme Inc.',
          addressLines: ['1 Market St', 'San Francisco, CA 94105', 'United States'],
        },
      });
      expect(document.grossMinor).toBe(document.netMinor);
    });

    it('a VAT ID of the right format and check digits that VIES does not know: 19 % (decision 210)', async () => {
      const { page, document } = await buy(
        { ...order, ...french, vatId: 'FR23334175221' },
        'fr-unknown@card-tax.test',
      );
      expect(page).toContain('VAT 19 %');
      expect(document).toMatchObject({
        grossMinor: grossAt19,
        vat: { case: 'eu-vat-id-unconfirmed', ratePercent: 19 },
        buyer: { vatId: 'FR23334175221' },
      });
    });

    it('refuses a checkout without a company, without an address, with a tampered amount, a missing or foreign state: 400, nothing opened', async () => {
      const before = await sessionCount(t);
      const cases: [Record<string, unknown>, string][] = [
        [{ ...order, ...germanCompany, companyName: undefined }, 'companyName'],
        [{ ...order, ...germanCompany, companyName: '   ' }, 'companyName'],
        [{ ...order, companyName: 'Address-less GmbH' }, 'addressLine'],
        [{ ...order, ...american, state: undefined }, 'state'],
        [{ ...order, ...american, state: 'XX' }, 'state'],
        [{ ...order, ...germanCompany, state: 'CA' }, 'state'],
        [{ ...order, ...germanCompany, vatId: 'FR40303265045' }, 'vatId'],
        [{ ...order, ...germanCompany, country: 'ZZ' }, 'country'],
      ];
      for (const [body, field] of cases) {
        const response = await postCheckout(t, body);
        expect(response.status, field).toBe(400);
        expect(await errorFields(response), JSON.stringify(body)).toContain(field);
      }
      // A client that names its own price is refused before anything reads it.
      const tampered = await postCheckout(t, { ...order, ...germanCompany, amount: 1 });
      expect(tampered.status).toBe(400);
      expect(await sessionCount(t)).toBe(before);
    });

    it('Starter asks only the company and its page says it is free, with no VAT and no refund terms', async () => {
      const refused = await postCheckout(t, { ...order, edition: 'Starter', quantity: 3 });
      expect(refused.status).toBe(400);
      expect(await errorFields(refused)).toEqual(['companyName']);
      const { sessionId } = await createCheckout(t, {
        ...order,
        edition: 'Starter',
        quantity: 3,
        companyName: 'Tiny Team Ltd',
      });
      const page = await (await browser(t, `/billing/local/checkout/${sessionId}`)).text();
      expect(page).toContain('Starter is free: nothing is charged');
      expect(page).not.toMatch(/VAT|refund/i);
    });

    describe('a quote paid by card', () => {
      async function usQuote(email: string) {
        const response = await postJson(t, '/account/v1/quotes', {
          ...american,
          emailAddress: email,
          edition: 'Pro',
          quantity: 10,
          billingPeriod: 'yearly',
          billingCurrency: 'USD',
        });
        expect(response.status).toBe(201);
        const body = z
          .object({ number: z.string(), acceptUrl: z.string() })
          .parse(await response.json());
        return {
          number: body.number,
          token: new URL(body.acceptUrl).searchParams.get('token') ?? '',
        };
      }
      const quoteOrder = (quoteToken: string): CheckoutRequestInput => ({
        ...order,
        billingCurrency: 'USD',
        quoteToken,
      });

      it('is charged exactly its total, taxed by its buyer, accepted, and its receipt names the quote', async () => {
        const quote = await usQuote('us-quote@card-tax.test');
        const [row] = await t.deps.database.db
          .select()
          .from(quotes)
          .where(eq(quotes.number, quote.number));
        const quoted = z
          .object({ tax: z.object({ grossCents: z.number(), ratePercent: z.number() }) })
          .parse(row?.document);
        const { document } = await buy(quoteOrder(quote.token), 'us-quote@card-tax.test');
        expect(document.grossMinor).toBe(quoted.tax.grossCents);
        expect(document).toMatchObject({
          quoteReference: quote.number,
          vat: { case: 'outside-eu', ratePercent: 0 },
          buyer: { companyName: 'Acme Inc.', country: 'US' },
        });
        const [after] = await t.deps.database.db
          .select()
          .from(quotes)
          .where(eq(quotes.number, quote.number));
        expect(after).toMatchObject({ status: 'accepted', acceptedBy: 'card' });
      });

      it('refuses another country, VAT ID or company than the quote’s: 400, nothing opened', async () => {
        const quote = await usQuote('us-quote-moved@card-tax.test');
        const before = await sessionCount(t);
        for (const [moved, field] of [
          [{ country: 'DE', state: undefined }, 'country'],
          [{ country: 'FR', vatId: 'FR40303265045' }, 'country'],
          [{ companyName: 'Someone Else Inc.' }, 'companyName'],
        ] as const) {
          const response = await postCheckout(t, { ...quoteOrder(quote.token), ...moved });
          expect(response.status, field).toBe(400);
          expect(await errorFields(response)).toContain(field);
        }
        expect(await sessionCount(t)).toBe(before);
        // The quote's own details, sent again, are fine.
        expect((await postCheckout(t, { ...quoteOrder(quote.token), ...american })).status).toBe(
          201,
        );
      });
    });
  });

  describe('with Stripe (the fake)', () => {
    let stripe: StripeTestApp;
    beforeAll(async () => {
      stripe = await startStripeTestApp(target, { now: start, name: 'card_tax' });
    });
    afterAll(() => stripe.close());

    /** The session request, its customer and its tax rate as the fake recorded them. */
    async function open(request: CheckoutRequestInput) {
      const { sessionId } = await createCheckout(stripe.t, request);
      const sent = stripe.fake.requestsTo('POST', '/v1/checkout/sessions').at(-1);
      const session = stripe.fake.sessions.get(sessionId);
      const customer = session?.customer ? stripe.fake.customers.get(session.customer) : undefined;
      const rateId = session?.line_items[0]?.tax_rates[0];
      const rate = rateId ? stripe.fake.taxRates.get(rateId) : undefined;
      return { sessionId, sent: sent?.body ?? {}, customer, rate };
    }

    it('collects the billing address, attaches our rule’s tax rate instead of Stripe Tax, and the customer carries the company', async () => {
      const { sessionId, sent, customer, rate } = await open({ ...order, ...germanCompany });
      expect(sent.billing_address_collection).toBe('required');
      expect(sent.automatic_tax).toBeUndefined();
      expect(rate).toMatchObject({ percentage: 19, inclusive: false, country: 'DE' });
      expect(customer).toMatchObject({
        name: 'Muster Software GmbH',
        address: { line1: 'Hauptstraße 1', postal_code: '10115', city: 'Berlin', country: 'DE' },
        tax_ids: [],
      });
      // The charge is the net plus our 19 % (the fake prices a stand-in net per unit).
      const subscription = stripe.fake.completeCheckoutSession(sessionId, {
        email: 'de@stripe-tax.test',
      });
      const invoice = stripe.fake.invoices.get(subscription.latest_invoice ?? '');
      expect(invoice?.tax).toBe(Math.round((invoice?.subtotal ?? 0) * 0.19));
      expect(stripe.fake.customers.get(subscription.customer)?.email).toBe('de@stripe-tax.test');
    });

    it('a French VAT ID VIES confirmed: 0 % with the eu_vat ID and the consultation; one VIES does not know: 19 %, no eu_vat', async () => {
      const confirmed = await open({ ...order, ...french });
      expect(confirmed.rate).toMatchObject({ percentage: 0 });
      expect(confirmed.customer).toMatchObject({
        tax_ids: [{ type: 'eu_vat', value: 'FR40303265045' }],
        invoice_settings: {
          custom_fields: [{ name: 'VAT ID confirmed by VIES', value: expect.stringMatching(/\S/) }],
          footer: expect.stringContaining('Reverse charge'),
        },
      });
      const unknown = await open({ ...order, ...french, vatId: 'FR23334175221' });
      expect(unknown.rate).toMatchObject({ percentage: 19 });
      expect(unknown.customer).toMatchObject({
        tax_ids: [],
        invoice_settings: { custom_fields: [{ name: 'VAT ID', value: 'FR23334175221' }] },
      });
    });

    it('a US company: 0 % and its state on the customer’s address; a quote’s number on its invoices', async () => {
      const quoteResponse = await postJson(stripe.t, '/account/v1/quotes', {
        ...american,
        emailAddress: 'us-quote@stripe-tax.test',
        edition: 'Pro',
        quantity: 10,
        billingPeriod: 'yearly',
        billingCurrency: 'USD',
      });
      const quote = z
        .object({ number: z.string(), acceptUrl: z.string() })
        .parse(await quoteResponse.json());
      const token = new URL(quote.acceptUrl).searchParams.get('token') ?? '';
      const { rate, customer } = await open({
        ...order,
        billingCurrency: 'USD',
        quoteToken: token,
      });
      expect(rate).toMatchObject({ percentage: 0 });
      expect(customer).toMatchObject({
        name: 'Acme Inc.',
        address: { state: 'CA', country: 'US', postal_code: '94105' },
        invoice_settings: { custom_fields: [{ name: 'Quote', value: quote.number }] },
      });
    });
  });
});
