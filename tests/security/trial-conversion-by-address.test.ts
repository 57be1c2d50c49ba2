import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { licences, localCheckoutSessions, subscriptions } from '#server/platform/db/schema.ts';
import { createKeepTrialToken } from '#server/billing/subscriptions/keep-trial-link.ts';
import { readKeepTrialLink } from '#server/billing/subscriptions/keep-trial-key.ts';
import { syncDepsOf } from '#server/billing/subscriptions/sync-subscription.ts';
import { revokeLicence } from '#server/licensing/licences/revoke-licence.ts';
import { KEEP_TRIAL_KEY_PATH } from '#shared/contracts/keep-trial-key.ts';
import type { CheckoutRequestInput } from '#shared/contracts/checkout.ts';
import { siteConfig } from '#shared/site-config.ts';
import { postJson as postSameOrigin } from '../api/account-support.ts';
import {
  createCheckout,
  issueTrial,
  licenceKeyPattern,
  licencesOf,
  mailsTo,
  payLocally,
  successCard,
} from '../api/checkout-support.ts';
import { databaseTargets } from '../support/databases.ts';
import { postJson } from '../support/licensing.ts';
import { startStripeTestApp, type StripeTestApp } from '../support/stripe-test-app.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

/**
 * Issue 38, invariant "ownership" (decision 213): a stranger bought Pro 4 by card with the
 * victim's address in another spelling (tag, case), and the victim's Trial Enterprise became
 * Paid Pro 4 tied to the stranger's card. A card purchase that names no trial key never converts
 * a trial: it gets a licence of its own, whose key goes to the address, and that e-mail offers
 * the mailbox a signed single-use link to keep the trial key instead. Only the link's POST acts.
 */

const start = new Date('2026-05-04T09:00:00Z');

const pro4MonthlyUsd: CheckoutRequestInput = {
  edition: 'Pro',
  quantity: 4,
  billingPeriod: 'monthly',
  billingCurrency: 'USD',
  successUrl: 'http://localhost:3000/checkout-success?session_id={CHECKOUT_SESSION_ID}',
  cancelUrl: 'http://localhost:3000/pricing',
};

async function licenceRow(t: TestApp, id: string) {
  const [row] = await t.deps.database.db.select().from(licences).where(eq(licences.id, id));
  return row;
}

async function mirrorOf(t: TestApp, subscriptionId: string) {
  const [row] = await t.deps.database.db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.subscriptionId, subscriptionId));
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

/** The key and the keep-your-trial-key token of the newest licence e-mail to `to` (as typed). */
async function licenceMail(t: TestApp, to: string) {
  const mail = (await mailsTo(t, to)).filter((row) => row.kind === 'licence-key').at(-1);
  const text = mail?.textBody ?? '';
  const key = licenceKeyPattern.exec(text)?.[0];
  const link = /https?:\/\/\S+\/keep-trial-key\?token=([A-Za-z0-9_.-]+)/.exec(text);
  if (!key) throw new Error(`no licence key e-mailed to ${to}`);
  return { key, token: link?.[1] };
}

const keep = (t: TestApp, token: string) => postSameOrigin(t, KEEP_TRIAL_KEY_PATH, { token });

/**
 * The attack and the owner's way out, whichever provider carried the purchase: `buy` pays a card
 * checkout with an address and returns the subscription id.
 */
function ownershipCases(
  world: () => TestApp,
  buy: (email: string, request: CheckoutRequestInput) => Promise<string>,
  prefix: string,
) {
  it('a stranger’s card purchase with the victim’s address (tag, case) leaves the trial as it was; the mailbox’s link keeps the trial key, once', async () => {
    const t = world();
    const victim = `${prefix}.victim@acme.test`;
    const typed = `${prefix}.Victim+shop@ACME.test`;
    const trial = await issueTrial(t, victim);
    const before = await licenceRow(t, trial.id);

    const subscriptionId = await buy(typed, pro4MonthlyUsd);

    // The trial row is untouched: same type, edition, key, no subscription, no conversion mail.
    expect(await licenceRow(t, trial.id)).toEqual(before);
    expect(await validate(t, trial.key)).toMatchObject({
      valid: true,
      license: { type: 'Trial', edition: 'Enterprise' },
    });
    expect((await mailsTo(t, victim)).map((mail) => mail.kind)).toEqual([]);

    // The purchase has a licence of its own, its key e-mailed to the address as typed, with the
    // offer to keep the trial key.
    const issued = (await licencesOf(t, victim)).find((row) => row.id !== trial.id);
    expect(issued).toMatchObject({ type: 'Paid', edition: 'Pro', quantity: 4, email: typed });
    expect(issued?.subscriptionId).toBe(subscriptionId);
    const mail = await licenceMail(t, typed);
    expect(mail.token).toBeDefined();
    const token = mail.token ?? '';
    expect(await validate(t, mail.key)).toMatchObject({ valid: true, license: { type: 'Paid' } });

    // Opening the link (a mail scanner, the page's loader) changes nothing.
    expect(await readKeepTrialLink(syncDepsOf(t.deps), token)).toMatchObject({
      state: 'open',
      trialKeyHint: before?.keyHint,
      newKeyHint: issued?.keyHint,
    });
    expect(await licenceRow(t, trial.id)).toEqual(before);

    // A forged token, and a genuinely signed one that names another subscription: refused.
    const [payload = '', signature = ''] = token.split('.');
    const tampered = `${Buffer.from(
      Buffer.from(payload, 'base64url').toString('utf8').replace(subscriptionId, 'sub_other'),
    ).toString('base64url')}.${signature}`;
    const other = createKeepTrialToken(
      t.deps.secretKey,
      {
        provider: t.deps.payments.name,
        subscriptionId: `${subscriptionId}_other`,
        trialLicenceId: trial.id,
        issuedLicenceId: issued?.id ?? '',
      },
      t.deps.clock(),
    );
    for (const wrong of [tampered, other, 'not-a-token']) {
      const refused = await keep(t, wrong);
      expect(refused.status).toBe(410);
      expect(await refused.json()).toMatchObject({ Error: 'KeepTrialLinkInvalid' });
    }
    expect(await licenceRow(t, trial.id)).toEqual(before);

    // The mailbox's owner keeps the trial key: the trial now carries the subscription.
    const kept = await keep(t, token);
    expect(kept.status).toBe(200);
    expect(await kept.json()).toMatchObject({
      email: victim,
      edition: 'Pro',
      quantity: 4,
      trialKeyHint: before?.keyHint,
      newKeyHint: issued?.keyHint,
    });
    const converted = await licenceRow(t, trial.id);
    expect(converted).toMatchObject({
      type: 'Paid',
      edition: 'Pro',
      quantity: 4,
      keyHash: before?.keyHash,
      subscriptionId,
      revokedAt: null,
    });
    expect(await mirrorOf(t, subscriptionId)).toMatchObject({
      licenceId: trial.id,
      licenceOrigin: 'converted',
    });
    const retired = await licenceRow(t, issued?.id ?? '');
    expect(retired?.subscriptionId).toBeNull();
    expect(retired?.revokedAt).not.toBeNull();
    // Past the few seconds validation keeps a looked-up licence (decision 073).
    t.setNow(new Date(t.deps.clock().getTime() + 10 * 60_000));
    expect(await validate(t, trial.key)).toMatchObject({
      valid: true,
      license: { type: 'Paid', edition: 'Pro' },
    });
    expect(await validate(t, mail.key)).toMatchObject({ valid: false });
    expect((await mailsTo(t, victim)).map((row) => row.kind)).toEqual(['trial-converted']);

    // The link works once: a second use changes nothing.
    const again = await keep(t, token);
    expect(again.status).toBe(410);
    expect(await licenceRow(t, trial.id)).toEqual(converted);
    expect(await readKeepTrialLink(syncDepsOf(t.deps), token)).toEqual({ state: 'invalid' });
  });

  it('a link whose trial was revoked or converted since is refused and changes nothing', async () => {
    const t = world();
    const revokedTrial = await issueTrial(t, `${prefix}.revoked@acme.test`);
    await buy(`${prefix}.revoked@acme.test`, pro4MonthlyUsd);
    const revokedLink = (await licenceMail(t, `${prefix}.revoked@acme.test`)).token ?? '';
    await revokeLicence(t.deps.database.db, revokedTrial.id, t.deps.clock(), 'test');
    const revokedBefore = await licenceRow(t, revokedTrial.id);
    expect((await keep(t, revokedLink)).status).toBe(410);
    expect(await licenceRow(t, revokedTrial.id)).toEqual(revokedBefore);

    // The owner named the trial key in another checkout meanwhile: that one converted it.
    const named = await issueTrial(t, `${prefix}.named@acme.test`);
    const firstSubscription = await buy(`${prefix}.named@acme.test`, pro4MonthlyUsd);
    const firstLink = (await licenceMail(t, `${prefix}.named@acme.test`)).token ?? '';
    const secondSubscription = await buy(`${prefix}.named@acme.test`, {
      ...pro4MonthlyUsd,
      trialLicenseKeyToConvert: named.key,
    });
    const convertedBefore = await licenceRow(t, named.id);
    expect(convertedBefore).toMatchObject({ type: 'Paid', subscriptionId: secondSubscription });
    expect((await keep(t, firstLink)).status).toBe(410);
    expect(await licenceRow(t, named.id)).toEqual(convertedBefore);
    expect(await mirrorOf(t, firstSubscription)).toMatchObject({ licenceOrigin: 'issued' });
  });

  it('naming the trial key at checkout still converts at once, with no link', async () => {
    const t = world();
    const trial = await issueTrial(t, `${prefix}.keyholder@acme.test`);
    const subscriptionId = await buy(`${prefix}.keyholder@acme.test`, {
      ...pro4MonthlyUsd,
      trialLicenseKeyToConvert: trial.key,
    });
    expect(await licenceRow(t, trial.id)).toMatchObject({
      type: 'Paid',
      edition: 'Pro',
      subscriptionId,
    });
    expect(await licencesOf(t, `${prefix}.keyholder@acme.test`)).toHaveLength(1);
  });
}

describe.each(databaseTargets)('a card purchase and someone else’s trial on $name', (target) => {
  describe('local provider', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(target, { now: start });
    });
    afterAll(() => t.close());

    ownershipCases(
      () => t,
      async (email, request) => {
        const { sessionId } = await createCheckout(t, request);
        const paid = await payLocally(t, sessionId, { email, card: successCard });
        expect(paid.status).toBe(303);
        const [session] = await t.deps.database.db
          .select()
          .from(localCheckoutSessions)
          .where(eq(localCheckoutSessions.id, sessionId));
        const subscriptionId = session?.subscriptionId;
        if (!subscriptionId) throw new Error('no subscription for the checkout');
        return subscriptionId;
      },
      'local',
    );
  });

  describe('Stripe webhooks', () => {
    let stripe: StripeTestApp;
    beforeAll(async () => {
      stripe = await startStripeTestApp(target, { now: start, name: 'trial_by_address' });
    });
    afterAll(() => stripe.close());

    ownershipCases(
      () => stripe.t,
      async (email, request) => {
        const { sessionId } = await createCheckout(stripe.t, request);
        const subscription = stripe.fake.completeCheckoutSession(sessionId, { email });
        await stripe.deliver('checkout.session.completed', {
          object: 'checkout.session',
          id: sessionId,
          subscription: subscription.id,
        });
        await stripe.deliver('customer.subscription.updated', {
          object: 'subscription',
          id: subscription.id,
        });
        await stripe.deliver('invoice.paid', {
          object: 'invoice',
          id: `in_${subscription.id}`,
          parent: {
            type: 'subscription_details',
            subscription_details: { subscription: subscription.id },
          },
        });
        return subscription.id;
      },
      'stripe',
    );
  });
});
