import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeEmailAddress } from '#server/platform/email/normalize-email-address.ts';
import { runLocalBilling } from '#server/billing/payments/local/local-billing-worker.ts';
import { handlePaymentEvent, syncDepsOf } from '#server/billing/subscriptions/sync-subscription.ts';
import type { CheckoutRequestInput } from '#shared/contracts/checkout.ts';
import { siteConfig } from '#shared/site-config.ts';
import { databaseTargets } from '../support/databases.ts';
import { postJson, runAdminOn } from '../support/licensing.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import {
  browser,
  cancelUrl,
  createCheckout,
  issueTrial,
  germanCompany,
  licenceKeyPattern,
  licencesOf,
  mailsTo,
  payLocally,
  postCheckout,
  successCard,
  successUrl,
} from './checkout-support.ts';

const start = new Date('2026-01-15T10:00:00Z');
/** A revoked licence answers DEACTIVATED with the revocation as its detail (decision 086). */
const revokedAnswer = {
  valid: false,
  code: 'DEACTIVATED',
  detail: 'This licence was revoked by Orgsmith. Contact support if you think this is a mistake.',
};
const proMonthly: CheckoutRequestInput = {
  edition: 'Pro',
  quantity: 6,
  billingPeriod: 'monthly',
  billingCurrency: 'USD',
  successUrl,
  cancelUrl,
  ...germanCompany,
};

/** `licences revoke` is a state of its own that payment events do not undo (decision 086). */
describe.each(databaseTargets)('licence revocation on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target, { now: start, env: { LICENSE_VALIDATION_CACHE_SECONDS: '0' } });
  });
  afterAll(() => t.close());

  async function validate(licenseKey: string) {
    const res = await postJson(t, '/account/v1/licenses/validate', {
      licenseKey,
      productId: siteConfig.productId,
    });
    expect(res.status).toBe(200);
    const answer: unknown = await res.json();
    return answer;
  }

  async function buy(email: string) {
    const { sessionId } = await createCheckout(t, proMonthly);
    expect((await payLocally(t, sessionId, { email, card: successCard })).status).toBe(303);
    const licence = (await licencesOf(t, normalizeEmailAddress(email))).find(
      (row) => row.subscriptionId !== null,
    );
    const key = (await mailsTo(t, email))
      .find((mail) => mail.kind === 'licence-key')
      ?.textBody?.match(licenceKeyPattern)?.[0];
    if (!licence?.subscriptionId || !licence.customerId || !key) throw new Error('not bought');
    return { licence, key, subscriptionId: licence.subscriptionId, customerId: licence.customerId };
  }

  it('keeps a paid licence revoked through renewals, plan changes and events until reinstated', async () => {
    t.setNow(start);
    const email = 'chargeback@acme.test';
    const { licence, key, subscriptionId, customerId } = await buy(email);
    expect(await validate(key)).toMatchObject({ valid: true, code: 'VALID' });

    const revoked = await runAdminOn(t, 'licences', 'revoke', key, '--reason', 'chargeback');
    expect(revoked.code).toBe(0);
    expect(revoked.out).toContain(`Revoked licence ${licence.id} (Paid Pro, ${email}).`);
    expect(revoked.out).toContain(
      `Its subscription ${subscriptionId} (active) keeps running: cancel it at the payment provider`,
    );
    expect(await validate(key)).toMatchObject(revokedAnswer);

    // The renewal is paid and synced: the subscription moves on, the revocation stays.
    t.setNow(new Date('2026-02-15T10:00:00Z'));
    await runLocalBilling(t.deps);
    const [renewed] = await licencesOf(t, email);
    expect(renewed).toMatchObject({
      status: 'Active',
      expiresAt: new Date('2026-03-15T10:00:00Z'),
      revokedAt: start,
      revocationReason: 'chargeback',
    });
    expect(await validate(key)).toMatchObject(revokedAnswer);

    // A plan change in the billing portal and a repeated provider event change nothing either.
    const { url } = await t.deps.payments.createBillingPortalSession({
      customerId,
      returnUrl: 'http://localhost:3000/',
    });
    const changed = await browser(
      t,
      `${new URL(url).pathname}/subscriptions/${subscriptionId}/plan`,
      {
        edition: 'Pro',
        quantity: '8',
      },
    );
    expect(changed.status).toBe(303);
    const event = await handlePaymentEvent(syncDepsOf(t.deps), {
      id: 'evt_revocation_test',
      type: 'customer.subscription.updated',
      subscriptionId,
    });
    expect(event.outcome).toBe('applied');
    const [afterChange] = await licencesOf(t, email);
    expect(afterChange).toMatchObject({ quantity: 8, revokedAt: start });
    expect(await validate(key)).toMatchObject(revokedAnswer);

    const found = await runAdminOn(t, 'licences', 'find', licence.id);
    expect(found.out).toMatch(/State\s+revoked/);
    expect(found.out).toMatch(/Revoked\s+2026-01-15 10:00 UTC \(chargeback\)/);
    const again = await runAdminOn(t, 'licences', 'revoke', licence.id);
    expect(again).toMatchObject({ code: 0 });
    expect(again.out).toContain('was revoked already');

    const reinstated = await runAdminOn(t, 'licences', 'reinstate', email);
    expect(reinstated.code).toBe(0);
    expect(reinstated.out).toBe(`Reinstated licence ${licence.id}; validations now answer: valid.`);
    expect(await validate(key)).toMatchObject({
      valid: true,
      license: { quantity: 8, expiresAt: '2026-03-15T10:00:00.000Z' },
    });
    expect((await runAdminOn(t, 'licences', 'reinstate', licence.id)).out).toBe(
      `Licence ${licence.id} is not revoked; nothing changed.`,
    );
  });

  it('answers a revoked trial key like an unknown one at checkout and issues the buyer a new licence', async () => {
    t.setNow(start);
    const email = 'abuser@acme.test';
    const trial = await issueTrial(t, email);
    expect((await runAdminOn(t, 'licences', 'revoke', trial.id)).code).toBe(0);
    const refused = await postCheckout(t, { ...proMonthly, trialLicenseKeyToConvert: trial.key });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ Error: 'LicenseKeyUnknown' });

    const { licence, key } = await buy(email);
    expect(licence.id).not.toBe(trial.id);
    expect(await validate(key)).toMatchObject({ valid: true });
    expect(await validate(trial.key)).toMatchObject(revokedAnswer);
    const kept = (await licencesOf(t, email)).find((row) => row.id === trial.id);
    expect(kept).toMatchObject({ type: 'Trial', subscriptionId: null });
  });

  it('refuses an empty or overlong reason as a usage mistake', async () => {
    const { licence } = await buy('reasons@acme.test');
    expect(await runAdminOn(t, 'licences', 'revoke', licence.id, '--reason', ' ')).toMatchObject({
      code: 2,
    });
    const long = 'x'.repeat(501);
    expect(await runAdminOn(t, 'licences', 'revoke', licence.id, '--reason', long)).toMatchObject({
      code: 2,
      err: expect.stringContaining('at most 500 characters') as unknown,
    });
    const [row] = await licencesOf(t, 'reasons@acme.test');
    expect(row?.revokedAt).toBeNull();
  });
});
