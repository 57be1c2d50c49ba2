import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnv } from '#server/env.ts';
import { createStripeClient } from '#server/billing/payments/stripe/stripe-client.ts';
import { syncStripeCatalog } from '#server/billing/payments/stripe/sync-stripe-catalog.ts';
import { paymentEvents } from '#server/platform/db/schema.ts';
import { createCheckout, licencesOf, pro10YearlyEur } from '../api/checkout-support.ts';
import { databaseTargets } from '../support/databases.ts';
import { startStripeFake, type StripeFake } from '../support/stripe-fake.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { startAndExit } from './support/start-and-exit.ts';

/**
 * Issue 38, the Stripe edges (decision 206): a Stripe secret key without the webhook secret
 * started, listened on every interface and refused every event, so no purchase ever completed;
 * `invoice.paid` in the shape of API versions before 2025-03-31 (the subscription at the top
 * level of the invoice) was ignored; and a correctly signed event without `data` answered 500,
 * which Stripe retries for days. Now the first refuses to start, the second is read, and the
 * third answers 400 and records nothing.
 */
const secretKey = 'sk_test_webhook_edges';
const webhookSecret = 'whsec_webhook_edges_secret';
const start = new Date('2026-01-15T10:00:00Z');
const [target] = databaseTargets;

describe('a Stripe secret key without the webhook secret', () => {
  it('is refused at start in one line saying what to set', () => {
    let message = '';
    try {
      parseEnv({ NODE_ENV: 'production', STRIPE_SECRET_KEY: 'sk_test_x' });
    } catch (error) {
      message = error instanceof Error ? error.message : '';
    }
    const lines = message.split('\n').filter((line) => line.includes('STRIPE_WEBHOOK_SECRET'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('STRIPE_WEBHOOK_SECRET must be set with STRIPE_SECRET_KEY');
    // `npm run admin -- stripe sync` needs only the secret key.
    expect(parseEnv({ STRIPE_SECRET_KEY: 'sk_test_x' }, 'admin').payments.provider).toBe('stripe');
  });

  it('the production build exits with that line and never listens', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-webhook-secret-'));
    try {
      const { code, output } = await startAndExit(
        { DATA_DIR: dataDir, STRIPE_SECRET_KEY: 'sk_live_without_webhook_secret' },
        { timeoutMs: 30_000 },
      );
      expect(code).toBe(1);
      const lines = output.split('\n').filter((line) => line.includes('STRIPE_WEBHOOK_SECRET'));
      expect(lines).toHaveLength(1);
      expect(output).not.toContain('"msg":"listening');
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!target)('Stripe events this service must read or refuse', () => {
  let fake: StripeFake;
  let t: TestApp;
  let signer: Stripe;
  let counter = 0;

  beforeAll(async () => {
    if (!target) return;
    fake = await startStripeFake();
    fake.setNow(Math.floor(start.getTime() / 1000));
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
    await t?.close();
    await fake?.close();
  });

  /** POSTs `body` signed with the endpoint's secret, as Stripe would. */
  async function deliver(body: object): Promise<Response> {
    const payload = JSON.stringify(body);
    const header = signer.webhooks.generateTestHeaderString({ payload, secret: webhookSecret });
    return t.app.request('/account/v1/webhooks/stripe', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': header },
      body: payload,
    });
  }
  const eventId = () => `evt_edges_${++counter}`;
  const recordedEvents = async () =>
    (await t.deps.database.db.select().from(paymentEvents)).map((row) => row.eventId);

  it('answers 400 to a signed event without data, or without data.object, and records nothing', async () => {
    const before = await recordedEvents();
    const created = Math.floor(start.getTime() / 1000);
    const malformed = [
      { id: eventId(), object: 'event', type: 'invoice.paid', created },
      { id: eventId(), object: 'event', type: 'customer.subscription.updated', created, data: {} },
      { id: eventId(), object: 'event', type: 'checkout.session.completed', data: null },
      { id: eventId(), object: 'event', type: 'invoice.paid', data: { object: 'in_1' } },
      {
        id: eventId(),
        object: 'event',
        type: 'customer.subscription.deleted',
        data: { object: {} },
      },
      { object: 'event', type: 'invoice.paid', data: { object: { object: 'invoice' } } },
    ];
    for (const body of malformed) {
      const response = await deliver(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await response.json()).toMatchObject({ Error: expect.any(String) });
    }
    expect(await recordedEvents()).toEqual(before);
  });

  it('reads invoice.paid with the subscription at the top level (API versions before 2025-03-31)', async () => {
    const email = 'older-api@acme.test';
    const { sessionId } = await createCheckout(t, pro10YearlyEur);
    const subscription = fake.completeCheckoutSession(sessionId, { email });
    const response = await deliver({
      id: eventId(),
      object: 'event',
      type: 'invoice.paid',
      created: Math.floor(start.getTime() / 1000),
      data: {
        object: {
          object: 'invoice',
          id: 'in_older_api',
          subscription: subscription.id,
          parent: null,
        },
      },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ received: true, outcome: 'applied' });
    expect(await licencesOf(t, email)).toMatchObject([
      { type: 'Paid', subscriptionId: subscription.id, subscriptionStatus: 'active' },
    ]);
  });
});
