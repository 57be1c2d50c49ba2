import Stripe from 'stripe';
import { expect } from 'vitest';
import { createStripeClient } from '#server/billing/payments/stripe/stripe-client.ts';
import { syncStripeCatalog } from '#server/billing/payments/stripe/sync-stripe-catalog.ts';
import type { TestDatabaseTarget } from './databases.ts';
import { startStripeFake, type StripeFake } from './stripe-fake.ts';
import { createTestApp, type TestApp } from './test-app.ts';

export interface StripeTestApp {
  t: TestApp;
  fake: StripeFake;
  /** Delivers one event signed as Stripe would (the SDK's test helper); expects 200. */
  deliver(type: string, object: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
}

/**
 * The app on the Stripe adapter, pointed at a fresh Stripe fake whose catalog is synced, with
 * webhooks signed by the SDK: the set-up every Stripe test needs, written once.
 */
export async function startStripeTestApp(
  target: TestDatabaseTarget,
  options: { now: Date; name: string; env?: Record<string, string> },
): Promise<StripeTestApp> {
  const secretKey = `sk_test_${options.name}`;
  const webhookSecret = `whsec_${options.name}_secret`;
  const fake = await startStripeFake();
  fake.setNow(Math.floor(options.now.getTime() / 1000));
  const t = await createTestApp(target, {
    now: options.now,
    env: {
      ...options.env,
      STRIPE_SECRET_KEY: secretKey,
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_API_BASE_URL: fake.url,
    },
  });
  await syncStripeCatalog(createStripeClient({ secretKey, apiBaseUrl: fake.url }));
  const signer = new Stripe(secretKey);
  let eventCounter = 0;

  return {
    t,
    fake,
    async deliver(type, object) {
      eventCounter++;
      const payload = JSON.stringify({
        id: `evt_${options.name}_${eventCounter}`,
        object: 'event',
        type,
        created: Math.floor(t.deps.clock().getTime() / 1000),
        data: { object },
      });
      const header = signer.webhooks.generateTestHeaderString({ payload, secret: webhookSecret });
      const response = await t.app.request('/account/v1/webhooks/stripe', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Stripe-Signature': header },
        body: payload,
      });
      expect(response.status).toBe(200);
    },
    async close() {
      await t.close();
      await fake.close();
    },
  };
}
