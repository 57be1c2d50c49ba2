import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox, licences, trialClaims } from '#server/platform/db/schema.ts';
import { hashEmailAddress } from '#server/platform/email/normalize-email-address.ts';
import { createStripeClient } from '#server/billing/payments/stripe/stripe-client.ts';
import { syncStripeCatalog } from '#server/billing/payments/stripe/sync-stripe-catalog.ts';
import type { CheckoutRequestInput } from '#shared/contracts/checkout.ts';
import { siteConfig } from '#shared/site-config.ts';
import {
  createCheckout,
  issueTrial,
  licencesOf,
  mailsTo,
  payLocally,
  pro10YearlyEur,
  successCard,
} from '../api/checkout-support.ts';
import { KEEP_TRIAL_KEY_PATH } from '#shared/contracts/keep-trial-key.ts';
import { postJson as postSameOrigin } from '../api/account-support.ts';
import { databaseTargets } from '../support/databases.ts';
import { postJson } from '../support/licensing.ts';
import { startStripeFake, type StripeFake } from '../support/stripe-fake.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

/**
 * Issue 17, item 3: buying the free Starter plan with someone else's address never converts
 * their trial. A free plan converts only the trial whose key the buyer names (decision 122); a
 * paid card purchase with the address converts it only once the mailbox uses the link its
 * licence e-mail brings (decision 213).
 */

const start = new Date('2026-01-15T10:00:00Z');
const starter: CheckoutRequestInput = {
  ...pro10YearlyEur,
  edition: 'Starter',
  quantity: 3,
  billingPeriod: 'monthly',
};

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

async function conversionMails(t: TestApp) {
  const rows = await t.deps.database.db.select().from(emailOutbox);
  return rows.filter((row) => row.kind === 'trial-converted');
}

/** What the CLI hears about a key. */
async function validate(t: TestApp, key: string) {
  const response = await postJson(t, '/account/v1/licenses/validate', {
    licenseKey: key,
    productId: siteConfig.productId,
  });
  expect(response.status).toBe(200);
  const body: unknown = await response.json();
  return body;
}

/** Uses the keep-your-trial-key link of the newest licence e-mail to `to` (decision 213). */
async function keepTrialFromMail(t: TestApp, to: string): Promise<Response> {
  const mail = (await mailsTo(t, to)).filter((row) => row.kind === 'licence-key').at(-1);
  const token = /\/keep-trial-key\?token=([A-Za-z0-9_.-]+)/.exec(mail?.textBody ?? '')?.[1];
  if (!token) throw new Error(`no keep-your-trial-key link e-mailed to ${to}`);
  return postSameOrigin(t, KEEP_TRIAL_KEY_PATH, { token });
}

describe.each(databaseTargets)('a free plan and someone else’s trial on $name', (target) => {
  describe('local provider', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(target, { now: start });
    });
    afterAll(() => t.close());

    it('a stranger’s free Starter with the victim’s address (upper-cased) leaves the trial as it was', async () => {
      const trial = await issueTrial(t, 'victim@acme.test');
      const before = await licenceRow(t, trial.id);
      const claimBefore = await claimOf(t, 'victim@acme.test');

      const { sessionId } = await createCheckout(t, starter);
      const done = await payLocally(t, sessionId, { email: 'VICTIM@ACME.TEST' });
      expect(done.status).toBe(303);

      // The trial row is untouched: still an Enterprise trial, same key, no subscription.
      expect(await licenceRow(t, trial.id)).toEqual(before);
      expect(before).toMatchObject({ type: 'Trial', edition: 'Enterprise', subscriptionId: null });
      expect(await validate(t, trial.key)).toMatchObject({
        valid: true,
        license: { type: 'Trial', edition: 'Enterprise' },
      });
      expect(await conversionMails(t)).toEqual([]);
      // The address's one trial stays the victim's: the claim still names it.
      expect(await claimOf(t, 'victim@acme.test')).toEqual(claimBefore);

      // The buyer got a Free licence of their own, its key mailed to the address they typed.
      const owned = await licencesOf(t, 'victim@acme.test');
      expect(owned).toHaveLength(2);
      const free = owned.find((licence) => licence.id !== trial.id);
      expect(free).toMatchObject({ type: 'Free', edition: 'Starter', email: 'VICTIM@ACME.TEST' });
      expect((await mailsTo(t, 'VICTIM@ACME.TEST')).map((mail) => mail.kind)).toEqual([
        'licence-key',
      ]);

      // Later, the victim buys a paid plan with the address and keeps the trial key through the
      // link the licence e-mail brings (decision 213): the trial converts, key kept.
      const paid = await createCheckout(t, pro10YearlyEur);
      await payLocally(t, paid.sessionId, { email: 'victim@acme.test', card: successCard });
      expect(await licenceRow(t, trial.id)).toEqual(before);
      // The local customer of this address was made by the Starter checkout, as it typed it.
      expect((await keepTrialFromMail(t, 'VICTIM@ACME.TEST')).status).toBe(200);
      expect(await licenceRow(t, trial.id)).toMatchObject({
        type: 'Paid',
        edition: 'Pro',
        quantity: 10,
        keyHash: before?.keyHash,
      });
      expect((await mailsTo(t, 'victim@acme.test')).map((mail) => mail.kind)).toEqual([
        'trial-converted',
      ]);
    });

    it('a free Starter checkout that names the trial key converts it', async () => {
      const trial = await issueTrial(t, 'keyholder@acme.test');
      const { sessionId } = await createCheckout(t, {
        ...starter,
        trialLicenseKeyToConvert: trial.key,
      });
      expect((await payLocally(t, sessionId, { email: 'keyholder@acme.test' })).status).toBe(303);
      expect(await licenceRow(t, trial.id)).toMatchObject({
        type: 'Free',
        edition: 'Starter',
        quantity: 3,
      });
      expect(await licencesOf(t, 'keyholder@acme.test')).toHaveLength(1);
      expect((await mailsTo(t, 'keyholder@acme.test')).map((mail) => mail.kind)).toEqual([
        'trial-converted',
      ]);
    });

    it('a paid checkout with the same address (other case, +tag) converts only through its link', async () => {
      const trial = await issueTrial(t, 'payer@acme.test');
      const before = await licenceRow(t, trial.id);
      const { sessionId } = await createCheckout(t, pro10YearlyEur);
      await payLocally(t, sessionId, { email: 'PAYER+billing@acme.test', card: successCard });
      expect(await licenceRow(t, trial.id)).toEqual(before);
      expect(await licencesOf(t, 'payer@acme.test')).toHaveLength(2);
      expect((await keepTrialFromMail(t, 'PAYER+billing@acme.test')).status).toBe(200);
      expect(await licenceRow(t, trial.id)).toMatchObject({ type: 'Paid', edition: 'Pro' });
    });
  });

  describe('Stripe webhooks', () => {
    const secretKey = 'sk_test_free_plan_trial';
    const webhookSecret = 'whsec_free_plan_trial_secret';
    let fake: StripeFake;
    let t: TestApp;
    let signer: Stripe;
    let eventCounter = 0;

    beforeAll(async () => {
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
      await t.close();
      await fake.close();
    });

    /** The events Stripe sends for a completed checkout, each signed as Stripe signs it. */
    async function deliverPurchase(sessionId: string, subscriptionId: string): Promise<void> {
      const objects = [
        [
          'checkout.session.completed',
          { object: 'checkout.session', id: sessionId, subscription: subscriptionId },
        ],
        ['customer.subscription.created', { object: 'subscription', id: subscriptionId }],
      ] as const;
      for (const [type, object] of objects) {
        eventCounter++;
        const payload = JSON.stringify({
          id: `evt_free_plan_${eventCounter}`,
          object: 'event',
          type,
          created: Math.floor(start.getTime() / 1000),
          data: { object },
        });
        const header = signer.webhooks.generateTestHeaderString({ payload, secret: webhookSecret });
        const response = await t.app.request('/account/v1/webhooks/stripe', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'Stripe-Signature': header },
          body: payload,
        });
        expect(response.status).toBe(200);
      }
    }

    async function buy(email: string, request: CheckoutRequestInput) {
      const { sessionId } = await createCheckout(t, request);
      const subscription = fake.completeCheckoutSession(sessionId, { email });
      await deliverPurchase(sessionId, subscription.id);
      return subscription;
    }

    it('a stranger’s free Starter with the victim’s address leaves the trial as it was', async () => {
      const trial = await issueTrial(t, 'stripe.victim@acme.test');
      const before = await licenceRow(t, trial.id);
      await buy('Stripe.Victim@ACME.test', starter);
      expect(await licenceRow(t, trial.id)).toEqual(before);
      expect(await validate(t, trial.key)).toMatchObject({
        valid: true,
        license: { type: 'Trial', edition: 'Enterprise' },
      });
      expect(await conversionMails(t)).toEqual([]);
      const free = (await licencesOf(t, 'stripe.victim@acme.test')).find(
        (licence) => licence.id !== trial.id,
      );
      expect(free).toMatchObject({ type: 'Free', edition: 'Starter' });

      // A paid plan bought with the address converts the trial through its link (decision 213).
      const paid = await buy('stripe.victim@acme.test', pro10YearlyEur);
      expect(await licenceRow(t, trial.id)).toEqual(before);
      expect((await keepTrialFromMail(t, 'stripe.victim@acme.test')).status).toBe(200);
      expect(await licenceRow(t, trial.id)).toMatchObject({
        type: 'Paid',
        subscriptionId: paid.id,
      });
    });

    it('a free Starter checkout that names the trial key converts it', async () => {
      const trial = await issueTrial(t, 'stripe.keyholder@acme.test');
      const subscription = await buy('stripe.keyholder@acme.test', {
        ...starter,
        trialLicenseKeyToConvert: trial.key,
      });
      expect(await licenceRow(t, trial.id)).toMatchObject({
        type: 'Free',
        edition: 'Starter',
        subscriptionId: subscription.id,
      });
      expect(await licencesOf(t, 'stripe.keyholder@acme.test')).toHaveLength(1);
    });

    it('a paid checkout with the same address converts only through its link', async () => {
      const trial = await issueTrial(t, 'stripe.payer@acme.test');
      const before = await licenceRow(t, trial.id);
      const subscription = await buy('STRIPE.PAYER@acme.test', pro10YearlyEur);
      expect(await licenceRow(t, trial.id)).toEqual(before);
      expect((await keepTrialFromMail(t, 'STRIPE.PAYER@acme.test')).status).toBe(200);
      expect(await licenceRow(t, trial.id)).toMatchObject({
        type: 'Paid',
        subscriptionId: subscription.id,
      });
    });
  });
});
