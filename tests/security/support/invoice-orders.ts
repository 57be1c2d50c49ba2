import { isNotNull } from 'drizzle-orm';
import { expect } from 'vitest';
import { z } from 'zod';
import { emailOutbox, licences, localInvoices, subscriptions } from '#server/platform/db/schema.ts';
import { createStripeClient } from '#server/billing/payments/stripe/stripe-client.ts';
import { syncStripeCatalog } from '#server/billing/payments/stripe/sync-stripe-catalog.ts';
import type { InvoiceCheckoutRequestInput } from '#shared/contracts/invoice-checkout.ts';
import { outboxRows, postJson } from '#tests/api/account-support.ts';
import type { TestDatabaseTarget } from '#tests/support/databases.ts';
import { startStripeFake, type StripeFake } from '#tests/support/stripe-fake.ts';
import { createTestApp, type TestApp } from '#tests/support/test-app.ts';

/**
 * Shared by the invoice-order security tests (decisions 153, 154): the app on one database with
 * one payment provider, orders and their confirmation links as the site sends them, and what
 * exists afterwards (licences, subscriptions, invoices at the provider, e-mails).
 */

export const ORDER = '/account/v1/checkout/invoice';
export const CONFIRM = '/account/v1/checkout/invoice/confirm';
export const CANCEL = '/account/v1/checkout/invoice/cancel';

export const providers = ['local', 'stripe'] as const;
export type ProviderName = (typeof providers)[number];

export interface OrderWorld {
  t: TestApp;
  fake: StripeFake | undefined;
  close(): Promise<void>;
}

const stripeSecret = 'sk_test_invoice_orders';

export async function openWorld(
  target: TestDatabaseTarget,
  provider: ProviderName,
  now: Date,
): Promise<OrderWorld> {
  if (provider === 'local') {
    const t = await createTestApp(target, { now });
    return { t, fake: undefined, close: () => t.close() };
  }
  const fake = await startStripeFake();
  fake.setNow(Math.floor(now.getTime() / 1000));
  const t = await createTestApp(target, {
    now,
    env: {
      STRIPE_SECRET_KEY: stripeSecret,
      STRIPE_WEBHOOK_SECRET: 'whsec_invoice_orders_secret',
      STRIPE_API_BASE_URL: fake.url,
    },
  });
  await syncStripeCatalog(createStripeClient({ secretKey: stripeSecret, apiBaseUrl: fake.url }));
  return {
    t,
    fake,
    async close() {
      await t.close();
      await fake.close();
    },
  };
}

export const enterpriseOrder = (billingEmail: string): InvoiceCheckoutRequestInput => ({
  edition: 'Enterprise',
  quantity: 25,
  billingPeriod: 'yearly',
  billingCurrency: 'EUR',
  companyName: 'Acme Holding GmbH',
  billingEmail,
  addressLine: 'Hauptstraße 1',
  postalCode: '10115',
  city: 'Berlin',
  country: 'DE',
  poReference: 'PO-4711',
});

export const placeOrder = (t: TestApp, body: unknown) => postJson(t, ORDER, body);
export const confirmOrder = (t: TestApp, token: string) => postJson(t, CONFIRM, { token });
export const cancelOrder = (t: TestApp, token: string) => postJson(t, CANCEL, { token });

/** The token of the newest confirmation link e-mailed to `to` (as typed). */
export async function confirmationToken(t: TestApp, to: string): Promise<string> {
  const mails = (await outboxRows(t)).filter(
    (row) => row.kind === 'invoice-order-confirmation' && row.toAddress === to,
  );
  const text = mails.at(-1)?.textBody ?? '';
  const link = /https?:\/\/\S+\/invoice-order\?token=([A-Za-z0-9_-]+)/.exec(text);
  if (!link?.[1]) throw new Error(`no confirmation link e-mailed to ${to}`);
  return link[1];
}

export const confirmedOrderSchema = z.object({
  subscriptionId: z.string(),
  invoiceNumber: z.string(),
  invoiceUrl: z.string(),
  licenceEmail: z.string(),
});

/** Places an order and confirms its link; returns the confirmed order's answer. */
export async function orderAndConfirm(t: TestApp, body: InvoiceCheckoutRequestInput) {
  const placed = await placeOrder(t, body);
  expect(placed.status).toBe(201);
  const confirmed = await confirmOrder(t, await confirmationToken(t, body.billingEmail));
  expect(confirmed.status).toBe(200);
  return confirmedOrderSchema.parse(await confirmed.json());
}

/** What exists: licences, subscription mirrors, provider subscriptions and sent invoices, e-mails. */
export async function whatExists(world: OrderWorld) {
  const db = world.t.deps.database.db;
  const mails = await db.select().from(emailOutbox);
  return {
    licences: (await db.select().from(licences)).filter((row) => row.type !== 'Trial').length,
    subscriptions: (await db.select().from(subscriptions)).length,
    providerSubscriptions: world.fake
      ? world.fake.requestsTo('POST', '/v1/subscriptions').length
      : (await db.select().from(subscriptions)).length,
    sentInvoices: world.fake
      ? world.fake.requests.filter(
          (request) =>
            request.method === 'POST' && /^\/v1\/invoices\/[^/]+\/send$/.test(request.path),
        ).length
      : (await db.select().from(localInvoices).where(isNotNull(localInvoices.number))).length,
    licenceMails: mails.filter((row) => row.kind === 'licence-key').length,
    mails: mails.length,
  };
}
