import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  licences,
  localInvoices,
  localSubscriptions,
  subscriptions,
  trialClaims,
} from '#server/platform/db/schema.ts';
import { sweepLicenceLifecycle } from '#server/billing/subscriptions/sweep-licence-lifecycle.ts';
import { createProviderCallRepository } from '#server/billing/subscriptions/provider-call-repository.ts';
import { runProviderCalls } from '#server/billing/subscriptions/provider-calls.ts';
import {
  hashEmailAddress,
  normalizeEmailAddress,
} from '#server/platform/email/normalize-email-address.ts';
import { runLocalBilling } from '#server/billing/payments/local/local-billing-worker.ts';
import { handlePaymentEvent, syncDepsOf } from '#server/billing/subscriptions/sync-subscription.ts';
import type { CheckoutRequestInput } from '#shared/contracts/checkout.ts';
import { siteConfig } from '#shared/site-config.ts';
import { databaseTargets } from '../support/databases.ts';
import { requestTrial } from './account-support.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import {
  browser,
  createCheckout,
  declineCard,
  licencesOf,
  mailsTo,
  payLocally,
  successCard,
  successUrl,
  cancelUrl,
} from './checkout-support.ts';

const start = new Date('2026-01-15T10:00:00Z');
const day = 86_400_000;
const proMonthlyUsd = (quantity: number): CheckoutRequestInput => ({
  edition: 'Pro',
  quantity,
  billingPeriod: 'monthly',
  billingCurrency: 'USD',
  successUrl,
  cancelUrl,
});

/**
 * The whole licence lifecycle on the local provider with a moving clock: renewals, a declined
 * card and its retries, deactivation, reactivation, deletion two plus one months later,
 * cancellation at period end and immediately, and prorated plan changes.
 */
describe.each(databaseTargets)('licence lifecycle timeline on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target, { now: start });
  });
  afterAll(() => t.close());

  const at = (date: Date) => t.setNow(date);
  const later = (ms: number) => at(new Date(t.deps.clock().getTime() + ms));
  const sweep = () => sweepLicenceLifecycle(syncDepsOf(t.deps));
  const kinds = async (email: string) => (await mailsTo(t, email)).map((mail) => mail.kind);
  const licenceOf = async (email: string) => (await licencesOf(t, normalizeEmailAddress(email)))[0];

  async function buy(email: string, request: CheckoutRequestInput, card = successCard) {
    const { sessionId } = await createCheckout(t, request);
    const paid = await payLocally(t, sessionId, { email, card });
    expect(paid.status).toBe(303);
    const licence = await licenceOf(email);
    if (!licence?.customerId || !licence.subscriptionId) throw new Error('no licence');
    return { licence, customerId: licence.customerId, subscriptionId: licence.subscriptionId };
  }

  async function portal(customerId: string): Promise<string> {
    const { url } = await t.deps.payments.createBillingPortalSession({
      customerId,
      returnUrl: 'http://localhost:3000/',
    });
    return new URL(url).pathname;
  }

  it('lapses, is deactivated, then marked for deletion and deleted; the trial claim stays', async () => {
    at(start);
    const email = 'lapse@acme.test';
    const { customerId, subscriptionId } = await buy(email, proMonthlyUsd(6));
    expect((await licenceOf(email))?.expiresAt).toEqual(new Date('2026-02-15T10:00:00Z'));

    // A month later the renewal is paid with the card on file.
    at(new Date('2026-02-15T10:00:00Z'));
    await runLocalBilling(t.deps);
    expect(await licenceOf(email)).toMatchObject({
      status: 'Active',
      expiresAt: new Date('2026-03-15T10:00:00Z'),
    });

    // The buyer switches to the card that is declined; the next renewal fails.
    const path = await portal(customerId);
    const saved = await browser(t, `${path}/card`, declineCard);
    expect(saved.status).toBe(303);
    at(new Date('2026-03-15T10:00:00Z'));
    await runLocalBilling(t.deps);
    expect(await licenceOf(email)).toMatchObject({
      status: 'Active',
      subscriptionStatus: 'past_due',
    });
    // The renewal's payment got its receipt (decision 180).
    expect(await kinds(email)).toEqual(['licence-key', 'payment-receipt', 'payment-failed']);

    // Retries after 3, 5 and 7 days; the last failure makes the payment lapse.
    for (const days of [3, 5]) {
      later(days * day);
      await runLocalBilling(t.deps);
      expect((await licenceOf(email))?.status).toBe('Active');
    }
    later(7 * day);
    const lapsedAt = t.deps.clock();
    await runLocalBilling(t.deps);
    expect(await licenceOf(email)).toMatchObject({
      status: 'Deactivated',
      deactivatedAt: lapsedAt,
      subscriptionStatus: 'unpaid',
    });
    expect(await kinds(email)).toEqual([
      'licence-key',
      'payment-receipt',
      'payment-failed',
      'licence-deactivated',
    ]);
    const deactivatedMail = (await mailsTo(t, email)).at(-1);
    expect(deactivatedMail?.textBody).toContain('30 May 2026');

    // Nothing happens inside the two-month window, hour after hour.
    at(new Date('2026-05-30T09:00:00Z'));
    expect(await sweep()).toMatchObject({ scheduledForDeletion: 0, deleted: 0 });

    // Two months after deactivation: marked for deletion, and its subscription is to be
    // cancelled — but the provider is down: the call waits in the queue (decision 246).
    at(new Date('2026-05-30T10:00:00Z'));
    const down = {
      ...t.deps.payments,
      cancelSubscription: () => Promise.reject(new Error('503 the provider is down')),
    };
    expect(await sweepLicenceLifecycle({ ...syncDepsOf(t.deps), payments: down })).toMatchObject({
      scheduledForDeletion: 1,
      deleted: 0,
      cancelled: 0,
      failed: 1,
    });
    const calls = createProviderCallRepository(t.deps.database.db);
    expect(await calls.pending()).toEqual([
      expect.objectContaining({
        kind: 'cancel',
        subscriptionId,
        attempts: 1,
        lastError: '503 the provider is down',
        nextAttemptAt: new Date('2026-05-30T10:01:00Z'),
      }),
    ]);
    expect((await licenceOf(email))?.subscriptionStatus).toBe('unpaid');
    // The next sweep finds the licence still due but queues no second call; the one waiting is
    // not due before its backoff.
    expect(await sweep()).toMatchObject({ cancelled: 0, failed: 0 });
    expect(await calls.pending()).toHaveLength(1);
    // A minute later the provider-calls job makes it.
    later(60_000);
    expect(await runProviderCalls(syncDepsOf(t.deps))).toEqual({
      cancelled: 1,
      resynced: 0,
      failed: 0,
      gaveUp: 0,
    });
    expect(await calls.pending()).toEqual([]);
    expect(await licenceOf(email)).toMatchObject({
      deletionScheduledAt: new Date('2026-06-30T10:00:00Z'),
      subscriptionStatus: 'canceled',
    });
    const [local] = await t.deps.database.db
      .select()
      .from(localSubscriptions)
      .where(eq(localSubscriptions.id, subscriptionId));
    expect(local?.status).toBe('canceled');
    expect((await kinds(email)).at(-1)).toBe('licence-deletion-scheduled');
    expect(await sweep()).toMatchObject({ scheduledForDeletion: 0, deleted: 0 });

    // A month later it is deleted; the address's claim remains (no second trial).
    at(new Date('2026-06-30T09:59:00Z'));
    expect(await sweep()).toMatchObject({ deleted: 0 });
    at(new Date('2026-06-30T10:00:00Z'));
    expect(await sweep()).toMatchObject({ deleted: 1 });
    expect(await licencesOf(t, email)).toEqual([]);
    const claims = await t.deps.database.db
      .select()
      .from(trialClaims)
      .where(eq(trialClaims.emailHash, hashEmailAddress(t.deps.secretKey, email)));
    expect(claims).toHaveLength(1);
    const [mirror] = await t.deps.database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.subscriptionId, subscriptionId));
    expect(mirror?.licenceId).toBeNull();

    // A late event for the subscription does not bring anything back.
    const late = await handlePaymentEvent(syncDepsOf(t.deps), {
      id: 'evt_local_late',
      type: 'customer.subscription.updated',
      subscriptionId,
    });
    expect(late.outcome).toBe('ignored');
    expect(await licencesOf(t, email)).toEqual([]);
  });

  it('reactivates a lapsed licence paid within two months (same key)', async () => {
    at(start);
    const email = 'comeback@acme.test';
    const { customerId, licence } = await buy(email, proMonthlyUsd(4));
    const path = await portal(customerId);
    await browser(t, `${path}/card`, declineCard);
    at(new Date('2026-02-15T10:00:00Z'));
    for (const days of [0, 3, 5, 7]) {
      later(days * day);
      await runLocalBilling(t.deps);
    }
    expect((await licenceOf(email))?.status).toBe('Deactivated');

    // Six weeks later the buyer pays with a good card: active again, a fresh period from today.
    at(new Date('2026-04-15T09:00:00Z'));
    const fresh = await portal(customerId);
    const paid = await browser(t, `${fresh}/card`, successCard);
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toContain('done=invoice-paid');
    expect(await licenceOf(email)).toMatchObject({
      id: licence.id,
      keyHash: licence.keyHash,
      status: 'Active',
      deactivatedAt: null,
      expiresAt: new Date('2026-05-15T09:00:00Z'),
    });
    expect(await kinds(email)).toEqual([
      'licence-key',
      'payment-failed',
      'licence-deactivated',
      'licence-reactivated',
      'payment-receipt',
    ]);
    expect(await sweep()).toMatchObject({ scheduledForDeletion: 0 });
  });

  it('cancels at period end, keeps the licence until then, deletes it after retention', async () => {
    at(start);
    const email = 'leaver@acme.test';
    const { customerId, subscriptionId } = await buy(email, proMonthlyUsd(5));
    const path = await portal(customerId);
    const cancelled = await browser(t, `${path}/subscriptions/${subscriptionId}/cancel`, {});
    expect(cancelled.headers.get('location')).toContain('done=cancellation-scheduled');
    expect(await licenceOf(email)).toMatchObject({ status: 'Active' });
    const mails = await mailsTo(t, email);
    expect(mails.map((mail) => mail.kind)).toEqual(['licence-key', 'cancellation-confirmed']);
    expect(mails[1]?.textBody).toContain('15 February 2026');

    const page = await (await browser(t, path)).text();
    expect(page).toContain('Cancels on 15 February 2026');

    at(new Date('2026-02-15T10:00:00Z'));
    await runLocalBilling(t.deps);
    expect(await licenceOf(email)).toMatchObject({
      status: 'Cancelled',
      expiresAt: new Date('2026-02-15T10:00:00Z'),
    });
    expect(await kinds(email)).toEqual(['licence-key', 'cancellation-confirmed']);
    const invoices = await t.deps.database.db
      .select()
      .from(localInvoices)
      .where(eq(localInvoices.subscriptionId, subscriptionId));
    expect(invoices).toHaveLength(1);

    at(new Date('2026-04-15T10:00:00Z'));
    expect(await sweep()).toMatchObject({ scheduledForDeletion: 1 });
    expect((await kinds(email)).at(-1)).toBe('licence-deletion-scheduled');
    at(new Date('2026-05-15T10:00:00Z'));
    expect(await sweep()).toMatchObject({ deleted: 1 });
    expect(await licencesOf(t, email)).toEqual([]);
  });

  it('cancels a Free licence immediately', async () => {
    at(start);
    const email = 'free-leaver@acme.test';
    const { customerId, subscriptionId } = await buy(email, {
      ...proMonthlyUsd(3),
      edition: 'Starter',
    });
    expect((await licenceOf(email))?.type).toBe('Free');
    const path = await portal(customerId);
    const page = await (await browser(t, path)).text();
    expect(page).toContain('A Free licence is cancelled immediately');
    const done = await browser(t, `${path}/subscriptions/${subscriptionId}/cancel`, {});
    expect(done.headers.get('location')).toContain('done=cancelled');
    expect(await licenceOf(email)).toMatchObject({ status: 'Cancelled', expiresAt: start });
    expect(await kinds(email)).toEqual(['licence-key', 'cancellation-confirmed']);
  });

  it('applies plan and quantity changes immediately, prorated', async () => {
    at(start);
    const email = 'grower@acme.test';
    const { customerId, subscriptionId } = await buy(email, proMonthlyUsd(5));
    // Half-way through the first month (31 days: 15 Jan → 15 Feb).
    at(new Date(start.getTime() + 15.5 * day));
    const path = await portal(customerId);
    const preview = await browser(t, `${path}?change=${subscriptionId}&edition=Pro&quantity=8`);
    const html = await preview.text();
    // 5 orgs: 630 USD, 8 orgs: 1,035 USD a month; half of each.
    expect(html).toContain('Preview: Orgsmith Pro, 8 orgs');
    expect(html).toContain('-$315.00');
    expect(html).toContain('$517.50');
    expect(html).toContain('$202.50');
    const confirmed = await browser(t, `${path}/subscriptions/${subscriptionId}/plan`, {
      edition: 'Pro',
      quantity: '8',
    });
    expect(confirmed.headers.get('location')).toContain('done=plan-changed');
    expect(await licenceOf(email)).toMatchObject({ edition: 'Pro', quantity: 8, type: 'Paid' });

    // Enterprise ignores the typed quantity; its size is 25.
    await browser(t, `${path}/subscriptions/${subscriptionId}/plan`, {
      edition: 'Enterprise',
      quantity: '8',
    });
    expect(await licenceOf(email)).toMatchObject({ edition: 'Enterprise', quantity: 25 });
    const invoices = await t.deps.database.db
      .select()
      .from(localInvoices)
      .where(eq(localInvoices.subscriptionId, subscriptionId));
    expect(invoices.map((invoice) => invoice.amount).sort((a, b) => a - b)).toEqual([
      20_250, 63_000, 123_250,
    ]);

    // An impossible change is refused with a message, and changes nothing.
    const refused = await browser(t, `${path}?change=${subscriptionId}&edition=Pro&quantity=30`);
    expect(await refused.text()).toContain('Pro covers 4 to 24 orgs.');
    expect(await licenceOf(email)).toMatchObject({ edition: 'Enterprise', quantity: 25 });
    const [row] = await t.deps.database.db
      .select()
      .from(licences)
      .where(eq(licences.subscriptionId, subscriptionId));
    expect(row?.expiresAt).toEqual(new Date('2026-02-15T10:00:00Z'));
  });

  it('deletes an expired trial after the retention time; its claim still refuses a second trial', async () => {
    at(start);
    const email = 'expired.trial@example.com';
    const trial = () => requestTrial(t, { emailAddress: email, productId: siteConfig.productId });
    expect((await trial()).status).toBe(204);
    const licence = await licenceOf(email);
    const expiresAt = licence?.expiresAt;
    if (!expiresAt) throw new Error('the trial has no expiry');
    const retentionOver = new Date(expiresAt);
    retentionOver.setUTCMonth(retentionOver.getUTCMonth() + 2);

    at(new Date(retentionOver.getTime() - 60_000));
    await sweep();
    expect((await licenceOf(email))?.deletionScheduledAt).toBeNull();
    at(retentionOver);
    const mailsBefore = (await kinds(email)).length;
    await sweep();
    expect((await licenceOf(email))?.deletionScheduledAt).toEqual(
      new Date(new Date(retentionOver).setUTCMonth(retentionOver.getUTCMonth() + 1)),
    );
    expect((await kinds(email)).length).toBe(mailsBefore);

    later(32 * day);
    await sweep();
    expect(await licencesOf(t, email)).toEqual([]);
    const refused = await trial();
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ Error: 'TrialLicenseAlreadyUsed' });
  });

  it('turns away an expired portal link', async () => {
    at(start);
    const { customerId } = await buy('late-portal@acme.test', proMonthlyUsd(4));
    const path = await portal(customerId);
    later(61 * 60 * 1000);
    const page = await browser(t, path);
    expect(page.status).toBe(410);
    expect(await page.text()).toContain('This billing portal link has expired.');
  });
});
