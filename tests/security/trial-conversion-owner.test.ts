import { bankAccountSchema } from '#server/billing/bank-accounts.ts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { licences, trialClaims } from '#server/platform/db/schema.ts';
import { createInvoiceCheckout } from '#server/billing/invoices/create-invoice-checkout.ts';
import { hashEmailAddress } from '#server/platform/email/normalize-email-address.ts';
import { viesClientOf } from '#server/billing/vat/confirm-vat-id.ts';
import { markLocalInvoicePaid } from '#server/billing/payments/local/local-invoices.ts';
import {
  handlePaymentEvent,
  syncDepsOf,
  syncSubscription,
} from '#server/billing/subscriptions/sync-subscription.ts';
import {
  invoiceCheckoutRequestSchema,
  type InvoiceCheckoutRequestInput,
} from '#shared/contracts/invoice-checkout.ts';
import { siteConfig } from '#shared/site-config.ts';
import {
  createCheckout,
  issueTrial,
  mailsTo,
  payLocally,
  pro10YearlyEur,
  successCard,
} from '../api/checkout-support.ts';
import { KEEP_TRIAL_KEY_PATH } from '#shared/contracts/keep-trial-key.ts';
import { postJson as postSameOrigin } from '../api/account-support.ts';
import { databaseTargets } from '../support/databases.ts';
import { postJson } from '../support/licensing.ts';
import type { StripeFake } from '../support/stripe-fake.ts';
import { startStripeTestApp, type StripeTestApp } from '../support/stripe-test-app.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

/**
 * Issue 25, row 1: an invoice order for Pro with a victim's address (case changed) converted the
 * victim's Trial Enterprise key into a Paid Pro licence for 4 orgs, tied to an unpaid invoice.
 * A trial converts by address only when money was received (decision 161): never on an invoice
 * sent and not paid, and not when that invoice is paid later either (the order has its own
 * licence by then). The owner's own card payment converts it only through the keep-your-trial-key
 * link e-mailed to the address (decision 213).
 */

const start = new Date('2026-04-01T10:00:00Z');

const proByInvoice = (billingEmail: string): InvoiceCheckoutRequestInput => ({
  edition: 'Pro',
  quantity: 4,
  billingPeriod: 'yearly',
  billingCurrency: 'EUR',
  companyName: 'Mallory Trading Ltd',
  billingEmail,
  addressLine: '1 Fraud Street',
  postalCode: 'E1 6AN',
  city: 'London',
  country: 'gb',
  vatId: null,
  poReference: 'PO-STOLEN',
});

async function licenceRow(t: TestApp, id: string) {
  const [row] = await t.deps.database.db.select().from(licences).where(eq(licences.id, id));
  return row;
}

async function claimOf(t: TestApp, normalized: string) {
  const [row] = await t.deps.database.db
    .select()
    .from(trialClaims)
    .where(eq(trialClaims.emailHash, hashEmailAddress(t.deps.secretKey, normalized)));
  return row;
}

/** What the CLI hears about a key. */
async function validate(t: TestApp, key: string): Promise<unknown> {
  const response = await postJson(t, '/account/v1/licenses/validate', {
    licenseKey: key,
    productId: siteConfig.productId,
  });
  expect(response.status).toBe(200);
  return response.json();
}

/** The order as the service places it once its address is confirmed (the route's own path). */
async function placeInvoiceOrder(t: TestApp, billingEmail: string) {
  const result = await createInvoiceCheckout(
    { ...syncDepsOf(t.deps), vies: viesClientOf(t.deps.env) },
    invoiceCheckoutRequestSchema.parse(proByInvoice(billingEmail)),
  );
  if (!result.ok) throw new Error(result.detail);
  return result.order;
}

/** The victim's trial is exactly as it was: type, edition, no subscription, no mail, claim kept. */
async function expectTrialUntouched(
  t: TestApp,
  trial: { id: string; key: string },
  before: Awaited<ReturnType<typeof licenceRow>>,
) {
  const after = await licenceRow(t, trial.id);
  expect(after).toEqual(before);
  expect(after?.type).toBe('Trial');
  expect(after?.edition).toBe('Enterprise');
  expect(after?.subscriptionId).toBeNull();
  expect((await mailsTo(t, 'victim@acme.test')).map((mail) => mail.kind)).not.toContain(
    'trial-converted',
  );
  expect(await validate(t, trial.key)).toMatchObject({
    code: 'VALID',
    license: { type: 'Trial', edition: 'Enterprise' },
  });
}

describe.each(databaseTargets)('an invoice order and someone else’s trial on $name', (target) => {
  describe('local provider', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(target, { now: start });
    });
    afterAll(() => t.close());

    it('an unpaid invoice order with the victim’s address (case changed) leaves the trial as it was, also once paid', async () => {
      const trial = await issueTrial(t, 'victim@acme.test');
      const before = await licenceRow(t, trial.id);
      const claimBefore = await claimOf(t, 'victim@acme.test');

      const placed = await placeInvoiceOrder(t, 'Victim@ACME.test');
      await expectTrialUntouched(t, trial, before);
      expect(await claimOf(t, 'victim@acme.test')).toEqual(claimBefore);

      // The invoice is paid later: the order keeps its own licence, the trial stays a trial.
      const paid = await markLocalInvoicePaid(
        { db: t.deps.database.db, clock: t.deps.clock },
        placed.invoiceNumber,
      );
      expect(paid.ok).toBe(true);
      if (paid.ok)
        for (const event of paid.events) await handlePaymentEvent(syncDepsOf(t.deps), event);
      await expectTrialUntouched(t, trial, before);
    });

    it('the owner’s own card payment converts the trial only through the link its mailbox got', async () => {
      const trial = await issueTrial(t, 'owner@acme.test');
      const before = await licenceRow(t, trial.id);
      const { sessionId } = await createCheckout(t, pro10YearlyEur);
      expect(
        (await payLocally(t, sessionId, { email: 'Owner@acme.test', card: successCard })).status,
      ).toBe(303);
      // A card checkout proves no mailbox (decision 213): the trial waits for the owner's click.
      expect(await licenceRow(t, trial.id)).toEqual(before);
      const [mail] = (await mailsTo(t, 'Owner@acme.test')).filter(
        (row) => row.kind === 'licence-key',
      );
      const token = /\/keep-trial-key\?token=([A-Za-z0-9_.-]+)/.exec(mail?.textBody ?? '')?.[1];
      expect(token).toBeDefined();
      const kept = await postSameOrigin(t, KEEP_TRIAL_KEY_PATH, { token });
      expect(kept.status).toBe(200);
      const after = await licenceRow(t, trial.id);
      expect(after?.type).toBe('Paid');
      expect(after?.edition).toBe('Pro');
      expect(after?.keyHash).toBe(before?.keyHash);
    });
  });

  describe('Stripe', () => {
    let stripe: StripeTestApp;
    let t: TestApp;
    let fake: StripeFake;

    beforeAll(async () => {
      stripe = await startStripeTestApp(target, { now: start, name: 'trial_owner' });
      ({ t, fake } = stripe);
    });
    afterAll(() => stripe.close());

    const deliverInvoicePaid = (invoiceId: string, subscriptionId: string) =>
      stripe.deliver('invoice.paid', {
        object: 'invoice',
        id: invoiceId,
        parent: {
          type: 'subscription_details',
          subscription_details: { subscription: subscriptionId },
        },
      });

    it('an unpaid invoice order with the victim’s address leaves the trial as it was, also once paid', async () => {
      const trial = await issueTrial(t, 'victim@acme.test');
      const before = await licenceRow(t, trial.id);

      const placed = await placeInvoiceOrder(t, 'VICTIM@acme.test');
      await expectTrialUntouched(t, trial, before);

      const invoice = [...fake.invoices.values()].find(
        (entry) => entry.subscription === placed.subscriptionId,
      );
      expect(invoice).toBeDefined();
      fake.payInvoice(invoice?.id ?? '');
      await deliverInvoicePaid(invoice?.id ?? '', placed.subscriptionId);
      await expectTrialUntouched(t, trial, before);
    });

    it('a subscription whose invoice was paid before its first sync may convert by address', async () => {
      const trial = await issueTrial(t, 'early@acme.test');
      // Created and paid at the provider before we ever read it (e.g. our sync was down).
      const deps = syncDepsOf(t.deps);
      const created = await t.deps.payments.createInvoiceSubscription({
        requestId: 'inv_trial_owner_paid_first',
        edition: 'Pro',
        quantity: 4,
        billingPeriod: 'yearly',
        currency: 'EUR',
        buyer: {
          companyName: 'Early Payer GmbH',
          email: 'early@acme.test',
          address: { line1: null, postalCode: null, city: null, country: 'de' },
          vatId: null,
          vatIdConfirmation: null,
        },
        poReference: null,
        quoteReference: null,
        daysUntilDue: 30,
        bankAccount: bankAccountSchema.parse(siteConfig.bankAccounts.EUR),
      });
      fake.payInvoice(created.invoice.invoiceId);
      await syncSubscription(deps, created.subscriptionId);
      const after = await licenceRow(t, trial.id);
      expect(after?.type).toBe('Paid');
      expect(after?.subscriptionId).toBe(created.subscriptionId);
    });
  });
});
