import type Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStripeFake, type StripeFake } from '#tests/support/stripe-fake.ts';
import { isPaymentError } from '#server/billing/subscriptions/payment-errors.ts';
import type { CreateCheckoutSessionInput } from '#server/billing/subscriptions/payment-types.ts';
import { createStripeClient } from './stripe-client.ts';
import {
  createStripePaymentProvider,
  type StripePaymentProvider,
} from './stripe-payment-provider.ts';
import { syncStripeCatalog } from './sync-stripe-catalog.ts';

const webhookSecret = 'whsec_test_secret_for_the_adapter';
const successUrl = 'http://localhost:3000/checkout-success?session_id={CHECKOUT_SESSION_ID}';
const cancelUrl = 'http://localhost:3000/pricing?size=10&period=yearly&currency=EUR';

let fake: StripeFake;
let stripe: Stripe;
let provider: StripePaymentProvider;

beforeAll(async () => {
  fake = await startStripeFake();
  stripe = createStripeClient({ secretKey: 'sk_test_fake', apiBaseUrl: fake.url });
  provider = createStripePaymentProvider({ stripe, webhookSecret });
});
afterAll(() => fake.close());

describe('stripe:sync against the fake', () => {
  it('creates the products and the twelve tiered prices once, then reports everything unchanged', async () => {
    const first = await syncStripeCatalog(stripe);
    expect(first.products.map((p) => p.outcome)).toEqual(['created', 'created', 'created']);
    expect(first.prices).toHaveLength(12);
    expect(first.prices.every((p) => p.outcome === 'created')).toBe(true);

    const proYearlyEur = fake
      .requestsTo('POST', '/v1/prices')
      .find((request) => request.body.lookup_key === 'orgsmith_pro_yearly_eur');
    expect(proYearlyEur?.body).toMatchObject({
      product: 'orgsmith_pro',
      currency: 'eur',
      billing_scheme: 'tiered',
      tiers_mode: 'graduated',
      recurring: { interval: 'year', usage_type: 'licensed' },
      transfer_lookup_key: 'true',
      tiers: [
        { up_to: '4', flat_amount: '494600', unit_amount: '0' },
        { up_to: 'inf', flat_amount: '0', unit_amount: '135000' },
      ],
    });
    expect(proYearlyEur?.idempotencyKey).toMatch(/^stripe-sync-price-[0-9a-f]{40}$/);
    const starter = fake
      .requestsTo('POST', '/v1/prices')
      .find((request) => request.body.lookup_key === 'orgsmith_starter_monthly_usd');
    expect(starter?.body).toMatchObject({ billing_scheme: 'per_unit', unit_amount: '0' });
    const enterprise = fake
      .requestsTo('POST', '/v1/prices')
      .find((request) => request.body.lookup_key === 'orgsmith_enterprise_monthly_usd');
    expect(enterprise?.body.tiers).toEqual([
      { up_to: 'inf', flat_amount: '350000', unit_amount: '0' },
    ]);

    const postsBefore = fake.requests.filter((r) => r.method === 'POST').length;
    const second = await syncStripeCatalog(stripe);
    expect([...second.products, ...second.prices].every((r) => r.outcome === 'unchanged')).toBe(
      true,
    );
    expect(fake.requests.filter((r) => r.method === 'POST').length).toBe(postsBefore);
    const listing = fake.requestsTo('GET', '/v1/prices').at(-1);
    expect(listing?.query).toMatchObject({ expand: ['data.tiers'] });
  });

  it('replaces a price that drifted: new price takes the lookup key, the old one is archived', async () => {
    const drifted = [...fake.prices.values()].find(
      (price) => price.lookup_key === 'orgsmith_pro_monthly_usd',
    );
    if (!drifted) throw new Error('price missing');
    drifted.tiers = [{ up_to: null, flat_amount: 1, unit_amount: 1 }];
    const report = await syncStripeCatalog(stripe);
    const entry = report.prices.find((p) => p.lookupKey === 'orgsmith_pro_monthly_usd');
    expect(entry?.outcome).toBe('updated');
    expect(entry?.priceId).not.toBe(drifted.id);
    expect(drifted.active).toBe(false);
    expect(drifted.lookup_key).toBeNull();
    const again = await syncStripeCatalog(stripe);
    expect(again.prices.every((p) => p.outcome === 'unchanged')).toBe(true);
  });
});

describe('checkout sessions', () => {
  beforeEach(() => {
    fake.requests.length = 0;
  });

  it('sells Pro 10 orgs yearly in EUR by lookup key, with reference and metadata on session and subscription', async () => {
    const ref = await provider.createCheckoutSession({
      checkoutRequestId: 'chk_1',
      edition: 'Pro',
      quantity: 10,
      billingPeriod: 'yearly',
      currency: 'EUR',
      customerEmail: null,
      licenceIdToConvert: null,
      successUrl,
      cancelUrl,
    });
    expect(ref.sessionId).toMatch(/^cs_test_/);
    expect(ref.url).toContain(ref.sessionId);

    const lookup = fake.requestsTo('GET', '/v1/prices')[0];
    expect(lookup?.query).toMatchObject({
      lookup_keys: ['orgsmith_pro_yearly_eur'],
      active: 'true',
    });
    const [create] = fake.requestsTo('POST', '/v1/checkout/sessions');
    const price = [...fake.prices.values()].find((p) => p.lookup_key === 'orgsmith_pro_yearly_eur');
    const metadata = {
      checkout_request_id: 'chk_1',
      edition: 'Pro',
      quantity: '10',
      billing_period: 'yearly',
      currency: 'EUR',
    };
    expect(create?.body).toEqual({
      mode: 'subscription',
      line_items: [{ price: price?.id, quantity: '10' }],
      client_reference_id: 'chk_1',
      metadata,
      subscription_data: { metadata },
      success_url: successUrl,
      cancel_url: cancelUrl,
      payment_method_collection: 'always',
      billing_address_collection: 'required',
      // No tax ID asked for: Stripe Tax would reverse-charge it unverified (decision 210).
      automatic_tax: { enabled: 'true' },
    });
    expect(create?.idempotencyKey).toBe('checkout-chk_1');
    expect(create?.authorization).toBe('Bearer sk_test_fake');
    expect(fake.requestsTo('POST', '/v1/customers')).toHaveLength(0);
  });

  it('replays a retried request instead of opening a second session', async () => {
    const input = {
      checkoutRequestId: 'chk_retry',
      edition: 'Enterprise' as const,
      quantity: 25,
      billingPeriod: 'monthly' as const,
      currency: 'USD' as const,
      customerEmail: null,
      licenceIdToConvert: null,
      successUrl,
      cancelUrl,
    };
    const first = await provider.createCheckoutSession(input);
    const second = await provider.createCheckoutSession(input);
    expect(second.sessionId).toBe(first.sessionId);
  });

  it('asks for a card on Starter only if required, with quantity 3', async () => {
    await provider.createCheckoutSession({
      checkoutRequestId: 'chk_starter',
      edition: 'Starter',
      quantity: 3,
      billingPeriod: 'monthly',
      currency: 'USD',
      customerEmail: null,
      licenceIdToConvert: null,
      successUrl,
      cancelUrl,
    });
    const [create] = fake.requestsTo('POST', '/v1/checkout/sessions');
    expect(create?.body).toMatchObject({
      payment_method_collection: 'if_required',
      line_items: [{ quantity: '3' }],
    });
  });

  it('creates a known buyer’s customer once and reuses it', async () => {
    const convert = (id: string) =>
      provider.createCheckoutSession({
        checkoutRequestId: id,
        edition: 'Pro',
        quantity: 4,
        billingPeriod: 'monthly',
        currency: 'USD',
        customerEmail: 'Buyer@Example.com',
        licenceIdToConvert: 'lic-123',
        successUrl,
        cancelUrl,
      });
    await convert('chk_conv_1');
    await convert('chk_conv_2');
    const creates = fake.requestsTo('POST', '/v1/customers');
    expect(creates).toHaveLength(1);
    expect(creates[0]?.body).toEqual({
      email: 'buyer@example.com',
      metadata: { email_normalized: 'buyer@example.com' },
    });
    expect(creates[0]?.idempotencyKey).toMatch(/^customer-[0-9a-f]{40}-usd$/);
    // Stripe's e-mail filter is exact: the address as given, then in lower case.
    expect(fake.requestsTo('GET', '/v1/customers').map((request) => request.query.email)).toEqual([
      'Buyer@Example.com',
      'buyer@example.com',
      'Buyer@Example.com',
      'buyer@example.com',
    ]);
    const sessions = fake.requestsTo('POST', '/v1/checkout/sessions');
    expect(sessions[0]?.body.customer).toBe(creates[0] && [...fake.customers.keys()][0]);
    expect(sessions[1]?.body.customer).toBe(sessions[0]?.body.customer);
    expect(sessions[0]?.body.metadata).toMatchObject({ licence_id_to_convert: 'lic-123' });
    expect(sessions[0]?.body.subscription_data).toMatchObject({
      metadata: { licence_id_to_convert: 'lic-123' },
    });
  });

  /** A checkout of Pro, 4 orgs, monthly in USD for a buyer Checkout asks, with some changes. */
  const openCheckout = (checkoutRequestId: string, changes: Partial<CreateCheckoutSessionInput>) =>
    provider.createCheckoutSession({
      checkoutRequestId,
      edition: 'Pro',
      quantity: 4,
      billingPeriod: 'monthly',
      currency: 'USD',
      customerEmail: null,
      licenceIdToConvert: null,
      successUrl,
      cancelUrl,
      ...changes,
    });

  it('reuses the customer Stripe Checkout made for a repeat buyer instead of a second one', async () => {
    // An earlier purchase without a key: Checkout created the customer with the address as typed.
    const first = await openCheckout('chk_repeat_first', { quantity: 5 });
    const earlier = fake.completeCheckoutSession(first.sessionId, {
      email: 'Repeat.Buyer@Acme.test',
    });
    const creates = fake.requestsTo('POST', '/v1/customers').length;

    await openCheckout('chk_repeat_second', {
      edition: 'Enterprise',
      quantity: 25,
      billingPeriod: 'yearly',
      customerEmail: 'Repeat.Buyer@Acme.test',
      licenceIdToConvert: 'lic-repeat',
    });
    expect(fake.requestsTo('POST', '/v1/customers')).toHaveLength(creates);
    expect(fake.requestsTo('POST', '/v1/checkout/sessions').at(-1)?.body.customer).toBe(
      earlier.customer,
    );
  });

  it('does not reuse a customer pinned to another currency; the checkout still opens', async () => {
    const first = await openCheckout('chk_currency_first', {});
    const earlier = fake.completeCheckoutSession(first.sessionId, { email: 'euro@acme.test' });
    expect(fake.customers.get(earlier.customer)?.currency).toBe('usd');
    // What Stripe answers when the pinned customer is sold in another currency.
    const eurPrice = [...fake.prices.values()].find(
      (price) => price.lookup_key === 'orgsmith_pro_monthly_eur',
    );
    await expect(
      stripe.checkout.sessions.create({
        mode: 'subscription',
        customer: earlier.customer,
        line_items: [{ price: String(eurPrice?.id), quantity: 4 }],
        success_url: successUrl,
      }),
    ).rejects.toThrow('cannot combine currencies');

    const second = await openCheckout('chk_currency_second', {
      currency: 'EUR',
      customerEmail: 'euro@acme.test',
      licenceIdToConvert: 'lic-euro',
    });
    const customer = fake.sessions.get(second.sessionId)?.customer;
    expect(customer).toMatch(/^cus_/);
    expect(customer).not.toBe(earlier.customer);
    expect(fake.requestsTo('POST', '/v1/customers').at(-1)?.idempotencyKey).toMatch(/-eur$/);
  });

  it('fails with NotConfigured when the catalogue lacks the price', async () => {
    const price = [...fake.prices.values()].find(
      (p) => p.lookup_key === 'orgsmith_enterprise_yearly_usd',
    );
    if (!price) throw new Error('price missing');
    price.active = false;
    try {
      await expect(
        provider.createCheckoutSession({
          checkoutRequestId: 'chk_missing',
          edition: 'Enterprise',
          quantity: 25,
          billingPeriod: 'yearly',
          currency: 'USD',
          customerEmail: null,
          licenceIdToConvert: null,
          successUrl,
          cancelUrl,
        }),
      ).rejects.toSatisfy((error) => isPaymentError(error, 'NotConfigured'));
    } finally {
      price.active = true;
    }
  });
});

describe('sessions, subscriptions and the portal', () => {
  it('reads back a completed session and its subscription as a snapshot', async () => {
    const ref = await provider.createCheckoutSession({
      checkoutRequestId: 'chk_read',
      edition: 'Pro',
      quantity: 10,
      billingPeriod: 'yearly',
      currency: 'EUR',
      customerEmail: null,
      licenceIdToConvert: null,
      successUrl,
      cancelUrl,
    });
    expect(await provider.retrieveCheckoutSession(ref.sessionId)).toEqual({
      sessionId: ref.sessionId,
      status: 'open',
      subscriptionId: null,
      customerEmail: null,
    });
    fake.setNow(Date.UTC(2026, 0, 15) / 1000);
    const subscription = fake.completeCheckoutSession(ref.sessionId, { email: 'ops@acme.test' });
    expect(await provider.retrieveCheckoutSession(ref.sessionId)).toMatchObject({
      status: 'complete',
      subscriptionId: subscription.id,
      customerEmail: 'ops@acme.test',
    });
    fake.requests.length = 0;
    const snapshot = await provider.retrieveSubscription(subscription.id);
    expect(fake.requests[0]?.query).toEqual({ expand: ['customer', 'latest_invoice'] });
    expect(snapshot).toEqual({
      provider: 'stripe',
      subscriptionId: subscription.id,
      customerId: subscription.customer,
      customerEmail: 'ops@acme.test',
      customerName: null,
      status: 'active',
      edition: 'Pro',
      quantity: 10,
      billingPeriod: 'yearly',
      currency: 'EUR',
      currentPeriodEnd: new Date(Date.UTC(2027, 0, 15)),
      cancelAtPeriodEnd: false,
      endedAt: null,
      endedForNonPayment: false,
      licenceIdToConvert: null,
      quoteNumber: null,
      licenceHolderEmail: null,
      collection: 'card',
      openInvoice: null,
      paymentReceived: true,
      // Stripe's own invoice of the first payment (decision 180).
      providerDocumentUrl: `https://invoice.stripe.test/i/${subscription.latest_invoice}`,
    });

    fake.updateSubscription(subscription.id, {
      status: 'canceled',
      ended_at: Date.UTC(2026, 2, 1) / 1000,
      cancellation_details: { reason: 'payment_failed' },
    });
    expect(await provider.retrieveSubscription(subscription.id)).toMatchObject({
      status: 'canceled',
      endedAt: new Date(Date.UTC(2026, 2, 1)),
      endedForNonPayment: true,
    });
  });

  it('cancels a subscription at once, and only once', async () => {
    const ref = await provider.createCheckoutSession({
      checkoutRequestId: 'chk_cancel',
      edition: 'Starter',
      quantity: 3,
      billingPeriod: 'monthly',
      currency: 'EUR',
      customerEmail: null,
      licenceIdToConvert: null,
      successUrl,
      cancelUrl,
    });
    const subscription = fake.completeCheckoutSession(ref.sessionId, { email: 'free@acme.test' });
    await provider.cancelSubscription(subscription.id);
    await provider.cancelSubscription(subscription.id);
    expect(fake.requestsTo('DELETE', `/v1/subscriptions/${subscription.id}`)).toHaveLength(1);
    expect((await provider.retrieveSubscription(subscription.id)).status).toBe('canceled');
  });

  it('reports an unknown subscription as NotFound', async () => {
    await expect(provider.retrieveSubscription('sub_nope')).rejects.toSatisfy((error) =>
      isPaymentError(error, 'NotFound'),
    );
  });

  it('opens a billing portal session for a customer', async () => {
    const customerId = await provider.findOrCreateCustomer('portal@acme.test', 'EUR');
    const portal = await provider.createBillingPortalSession({
      customerId,
      returnUrl: 'http://localhost:3000/pricing',
    });
    expect(portal.url).toMatch(/^https:\/\/billing\.stripe\.test\/p\/session\//);
    expect(fake.requestsTo('POST', '/v1/billing_portal/sessions').at(-1)?.body).toEqual({
      customer: customerId,
      return_url: 'http://localhost:3000/pricing',
    });
  });
});

describe('webhooks', () => {
  function signed(event: object, secret = webhookSecret) {
    const payload = JSON.stringify(event);
    return { payload, header: stripe.webhooks.generateTestHeaderString({ payload, secret }) };
  }
  const event = (type: string, object: object) => ({
    id: `evt_${type.replace(/\W/g, '_')}`,
    object: 'event',
    type,
    created: 1_768_471_200,
    data: { object },
  });

  it('names the subscription of every handled event type', () => {
    const cases: Array<[string, object, string | null]> = [
      [
        'checkout.session.completed',
        { object: 'checkout.session', id: 'cs_1', mode: 'subscription', subscription: 'sub_1' },
        'sub_1',
      ],
      ['customer.subscription.created', { object: 'subscription', id: 'sub_2' }, 'sub_2'],
      ['customer.subscription.updated', { object: 'subscription', id: 'sub_3' }, 'sub_3'],
      ['customer.subscription.deleted', { object: 'subscription', id: 'sub_4' }, 'sub_4'],
      [
        'invoice.paid',
        {
          object: 'invoice',
          id: 'in_1',
          parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_5' } },
        },
        'sub_5',
      ],
      [
        'invoice.payment_failed',
        {
          object: 'invoice',
          id: 'in_2',
          parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_6' } },
        },
        'sub_6',
      ],
      ['invoice.paid', { object: 'invoice', id: 'in_3', parent: null }, null],
      ['customer.created', { object: 'customer', id: 'cus_1' }, null],
    ];
    for (const [type, object, subscriptionId] of cases) {
      const { payload, header } = signed(event(type, object));
      expect(provider.parseWebhook(payload, header)).toEqual({
        id: event(type, object).id,
        type,
        subscriptionId,
      });
    }
  });

  it('refuses a wrong secret, a tampered body and a missing header', () => {
    const { payload, header } = signed(event('customer.subscription.updated', { id: 'sub_1' }));
    const wrong = signed(JSON.parse(payload), 'whsec_someone_else');
    for (const [body, signature] of [
      [payload, wrong.header],
      [payload.replace('sub_1', 'sub_2'), header],
      [payload, undefined],
    ] as const) {
      expect(() => provider.parseWebhook(body, signature)).toThrowError(
        expect.objectContaining({ code: 'SignatureInvalid' }),
      );
    }
  });

  it('refuses every delivery when no webhook secret is configured', () => {
    const unconfigured = createStripePaymentProvider({ stripe, webhookSecret: undefined });
    const { payload, header } = signed(event('customer.subscription.updated', { id: 'sub_1' }));
    expect(() => unconfigured.parseWebhook(payload, header)).toThrowError(
      expect.objectContaining({ code: 'SignatureInvalid' }),
    );
  });
});
