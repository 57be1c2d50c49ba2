import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  licences,
  localInvoices,
  localSubscriptions,
  paymentEvents,
  subscriptions,
} from '#server/platform/db/schema.ts';
import { normalizeEmailAddress } from '#server/platform/email/normalize-email-address.ts';
import type { CheckoutRequestInput } from '#shared/contracts/checkout.ts';
import { databaseTargets } from '../support/databases.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import {
  browser,
  cancelUrl,
  createCheckout,
  licencesOf,
  mailsTo,
  payLocally,
  successCard,
  successUrl,
} from './checkout-support.ts';

const start = new Date('2026-04-01T00:00:00Z');
const day = 86_400_000;
const order = (
  billingPeriod: 'monthly' | 'yearly',
  billingCurrency: 'USD' | 'EUR',
): CheckoutRequestInput => ({
  edition: 'Pro',
  quantity: 10,
  billingPeriod,
  billingCurrency,
  successUrl,
  cancelUrl,
});

/**
 * The local billing portal's plan, quantity and billing-period changes (decisions 062, 090):
 * Stripe's proration, the events a Stripe webhook would bring, no currency switch, and tampered
 * form values answered with a message while the subscription stays as it was.
 */
describe.each(databaseTargets)('local billing portal changes on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target, { now: start });
  });
  afterAll(() => t.close());

  const db = () => t.deps.database.db;
  const licenceOf = async (email: string) => (await licencesOf(t, normalizeEmailAddress(email)))[0];

  async function buy(email: string, request: CheckoutRequestInput) {
    t.setNow(start);
    const { sessionId } = await createCheckout(t, request);
    expect((await payLocally(t, sessionId, { email, card: successCard })).status).toBe(303);
    const licence = await licenceOf(email);
    if (!licence?.customerId || !licence.subscriptionId) throw new Error('no licence');
    return { subscriptionId: licence.subscriptionId, customerId: licence.customerId };
  }

  /** Moves the clock, then opens a portal session (they last an hour). */
  async function portalAt(customerId: string, now: Date): Promise<string> {
    t.setNow(now);
    const { url } = await t.deps.payments.createBillingPortalSession({
      customerId,
      returnUrl: 'http://localhost:3000/',
    });
    return new URL(url).pathname;
  }

  async function localSubscription(id: string) {
    const [row] = await db().select().from(localSubscriptions).where(eq(localSubscriptions.id, id));
    return row;
  }

  async function invoices(subscriptionId: string) {
    return db()
      .select()
      .from(localInvoices)
      .where(eq(localInvoices.subscriptionId, subscriptionId))
      .orderBy(asc(localInvoices.createdAt));
  }

  async function eventTypes(subscriptionId: string) {
    const rows = await db()
      .select()
      .from(paymentEvents)
      .where(
        and(eq(paymentEvents.provider, 'local'), eq(paymentEvents.subscriptionId, subscriptionId)),
      )
      .orderBy(asc(paymentEvents.processedAt));
    return rows.map((row) => row.type);
  }

  it('switches monthly to yearly: credit for the month, a whole year from today, new renewal date', async () => {
    const email = 'to-yearly@acme.test';
    const { subscriptionId, customerId } = await buy(email, order('monthly', 'EUR'));
    // Half-way through April (30 days).
    const path = await portalAt(customerId, new Date(start.getTime() + 15 * day));

    const page = await (await browser(t, path)).text();
    expect(page).toContain('Change plan, quantity or billing period');
    expect(page).toContain('name="billingPeriod"');
    expect(page).toContain('Billed in EUR. A subscription keeps the currency it was bought in.');

    const preview = await (
      await browser(
        t,
        `${path}?change=${subscriptionId}&edition=Pro&quantity=10&billingPeriod=yearly`,
      )
    ).text();
    expect(preview).toContain('Preview: Orgsmith Pro, 10 orgs, billed yearly');
    expect(preview).toContain('A new year on the new plan, from today');
    // 1,208 EUR a month, half of it credited; 13,046 EUR for the year.
    expect(preview).toContain('-€604.00');
    expect(preview).toContain('€13,046.00');
    expect(preview).toContain('€12,442.00');
    // What the card is charged: a card buyer names no country, so German VAT (decision 180),
    // the same figures as the receipt below.
    expect(preview).toContain('VAT 19 %');
    expect(preview).toContain('€2,363.98');
    expect(preview).toContain('€14,805.98');
    expect(preview).toContain(
      'Next payment on 16 April 2027: €15,524.74 per year (€13,046.00 plus VAT 19 %)',
    );
    expect(await localSubscription(subscriptionId)).toMatchObject({ billingPeriod: 'monthly' });

    const eventsBefore = (await eventTypes(subscriptionId)).length;
    const mailsBefore = (await mailsTo(t, email)).map((mail) => mail.kind);
    const confirmed = await browser(t, `${path}/subscriptions/${subscriptionId}/plan`, {
      edition: 'Pro',
      quantity: '10',
      billingPeriod: 'yearly',
    });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toContain('done=plan-changed');

    const yearEnd = new Date('2027-04-16T00:00:00Z');
    expect(await localSubscription(subscriptionId)).toMatchObject({
      billingPeriod: 'yearly',
      currency: 'EUR',
      currentPeriodStart: new Date('2026-04-16T00:00:00Z'),
      currentPeriodEnd: yearEnd,
    });
    expect((await invoices(subscriptionId)).at(-1)).toMatchObject({
      status: 'paid',
      amount: 1_244_200,
      periodEnd: yearEnd,
      description: 'Prorated change to Orgsmith Pro, 10 orgs, billed yearly',
    });
    // The events a Stripe webhook would bring, synced into the licence and the mirror.
    expect((await eventTypes(subscriptionId)).slice(eventsBefore)).toEqual([
      'customer.subscription.updated',
      'invoice.paid',
    ]);
    expect(await licenceOf(email)).toMatchObject({ status: 'Active', expiresAt: yearEnd });
    const [mirror] = await db()
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.subscriptionId, subscriptionId));
    expect(mirror).toMatchObject({ billingPeriod: 'yearly', currentPeriodEnd: yearEnd });
    // Product rules (docs/product-rules.md#behaviour) names no e-mail for a plan change (decision 090): the portal page confirms it.
    // What it charged gets its receipt, as every payment does (decision 180).
    expect((await mailsTo(t, email)).map((mail) => mail.kind)).toEqual([
      ...mailsBefore,
      'payment-receipt',
    ]);
    const receipt = (await mailsTo(t, email)).find((mail) => mail.kind === 'payment-receipt');
    expect(receipt?.textBody).toContain('€14,805.98');
  });

  it('switches yearly to monthly with a credit for the unused year', async () => {
    const email = 'to-monthly@acme.test';
    const { subscriptionId, customerId } = await buy(email, order('yearly', 'USD'));
    const path = await portalAt(customerId, new Date(start.getTime() + 73 * day));
    const confirmed = await browser(t, `${path}/subscriptions/${subscriptionId}/plan`, {
      edition: 'Pro',
      quantity: '10',
      billingPeriod: 'monthly',
    });
    expect(confirmed.headers.get('location')).toContain('done=plan-changed');
    const [first, change] = await invoices(subscriptionId);
    // 292 of 365 days unused of 14,094 USD; one 1,305 USD month charged.
    expect(first?.amount).toBe(1_409_400);
    expect(change).toMatchObject({
      amount: 130_500 - Math.round(1_409_400 * (292 / 365)),
      description: 'Credit on change to Orgsmith Pro, 10 orgs, billed monthly',
    });
    expect(await licenceOf(email)).toMatchObject({
      expiresAt: new Date('2026-07-13T00:00:00Z'),
    });
    expect((await eventTypes(subscriptionId)).slice(-2)).toEqual([
      'customer.subscription.updated',
      'invoice.paid',
    ]);
  });

  it('answers tampered plan changes with a clear message and changes nothing', async () => {
    const email = 'tamper@acme.test';
    const { subscriptionId, customerId } = await buy(email, order('monthly', 'EUR'));
    const path = await portalAt(customerId, new Date(start.getTime() + 3 * day));
    const before = {
      subscription: await localSubscription(subscriptionId),
      invoices: (await invoices(subscriptionId)).length,
      events: (await eventTypes(subscriptionId)).length,
      licence: await licenceOf(email),
    };
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ edition: 'Platinum', quantity: '10' }, 'PlanInvalid', 'Choose one of the plans'],
      [{ quantity: '10' }, 'PlanInvalid', 'Choose one of the plans'],
      [
        { edition: 'Pro', quantity: '10', billingPeriod: 'weekly' },
        'PeriodInvalid',
        'Choose monthly or yearly billing.',
      ],
      [
        { edition: 'Pro', quantity: '10', currency: 'USD' },
        'CurrencyUnchangeable',
        'keeps the currency it was bought in',
      ],
      [
        { edition: 'Pro', quantity: '10', currency: 'GBP' },
        'CurrencyUnchangeable',
        'keeps the currency it was bought in',
      ],
      [{ edition: 'Pro', quantity: 'ten' }, 'QuantityInvalid', 'Pro covers 4 to 24 orgs.'],
      [{ edition: 'Pro', quantity: '4'.repeat(40) }, 'QuantityInvalid', 'Pro covers 4 to 24 orgs.'],
      [
        { edition: 'Pro', quantity: '10', billingPeriod: 'monthly' },
        'NoChange',
        'That is already your plan.',
      ],
    ];
    for (const [form, code, message] of cases) {
      const posted = await browser(t, `${path}/subscriptions/${subscriptionId}/plan`, form);
      expect(posted.status, code).toBe(303);
      const location = posted.headers.get('location') ?? '';
      expect(location, code).toContain(`error=${code}`);
      const page = await (await browser(t, location)).text();
      expect(page, code).toContain(message);
      expect(page, code).toContain('role="alert"');

      // The preview link answers the same values with the same message.
      const query = new URLSearchParams({ change: subscriptionId, ...form }).toString();
      const preview = await browser(t, `${path}?${query}`);
      expect(preview.status, code).toBe(200);
      const previewPage = await preview.text();
      expect(previewPage, code).toContain(message);
      expect(previewPage, code).not.toContain('Confirm change');
    }
    expect(await localSubscription(subscriptionId)).toEqual(before.subscription);
    expect((await invoices(subscriptionId)).length).toBe(before.invoices);
    expect((await eventTypes(subscriptionId)).length).toBe(before.events);
    expect(await licenceOf(email)).toEqual(before.licence);

    // The subscription's own currency may be sent along; the change then goes through.
    const sameCurrency = await browser(t, `${path}/subscriptions/${subscriptionId}/plan`, {
      edition: 'Pro',
      quantity: '12',
      currency: 'EUR',
    });
    expect(sameCurrency.headers.get('location')).toContain('done=plan-changed');
    expect(await licenceOf(email)).toMatchObject({ edition: 'Pro', quantity: 12 });
  });

  it('raises the update and invoice events for a downgrade credit, as Stripe does', async () => {
    const email = 'shrink@acme.test';
    const { subscriptionId, customerId } = await buy(email, order('monthly', 'USD'));
    const path = await portalAt(customerId, new Date(start.getTime() + 10 * day));
    const eventsBefore = (await eventTypes(subscriptionId)).length;
    await browser(t, `${path}/subscriptions/${subscriptionId}/plan`, {
      edition: 'Pro',
      quantity: '6',
    });
    expect((await invoices(subscriptionId)).at(-1)?.amount).toBeLessThan(0);
    expect((await eventTypes(subscriptionId)).slice(eventsBefore)).toEqual([
      'customer.subscription.updated',
      'invoice.paid',
    ]);
    const [row] = await db()
      .select()
      .from(licences)
      .where(eq(licences.subscriptionId, subscriptionId));
    expect(row).toMatchObject({ quantity: 6, expiresAt: new Date('2026-05-01T00:00:00Z') });
  });
});
