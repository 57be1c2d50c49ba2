import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runLocalBilling } from '#server/billing/payments/local/local-billing-worker.ts';
import { periodFigures, readDashboard } from '#server/features/dashboard/dashboard.ts';
import { validationTallyJob } from '#server/licensing/licence-validation/validation-tally.ts';
import type { DashboardView, MrrMovement } from '#shared/contracts/console-dashboard.ts';
import type { CheckoutRequestInput } from '#shared/contracts/checkout.ts';
import { siteConfig } from '#shared/site-config.ts';
import { enterpriseOrder, orderAndConfirm } from '#tests/security/support/invoice-orders.ts';
import { databaseTargets } from '../support/databases.ts';
import { signedInOperator } from '../support/console-operator.ts';
import { orgId, postJson } from '../support/licensing.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { requestTrial } from './account-support.ts';
import {
  browser,
  cancelUrl,
  createCheckout,
  licenceKeyPattern,
  licencesOf,
  mailsTo,
  payLocally,
  successCard,
  successUrl,
} from './checkout-support.ts';

const DAY = 86_400_000;
const pro = (
  quantity: number,
  billingPeriod: 'monthly' | 'yearly',
  billingCurrency: 'USD' | 'EUR',
): CheckoutRequestInput => ({
  edition: 'Pro',
  quantity,
  billingPeriod,
  billingCurrency,
  successUrl,
  cancelUrl,
});

/** Zero movements but for the fields given. */
const movement = (fields: Partial<MrrMovement> & Pick<MrrMovement, 'currency'>): MrrMovement => ({
  startMinor: 0,
  endMinor: 0,
  newMinor: 0,
  expansionMinor: 0,
  contractionMinor: 0,
  churnedMinor: 0,
  newCount: 0,
  expansionCount: 0,
  contractionCount: 0,
  churnedCount: 0,
  payingAtEnd: 0,
  ...fields,
});

const identityHolds = (row: MrrMovement) =>
  row.newMinor + row.expansionMinor - row.contractionMinor - row.churnedMinor ===
  row.endMinor - row.startMinor;

/**
 * A known period seeded through the real flows (trial route, card checkouts on the local
 * provider, plan changes in its portal, a cancellation at period end, a trial converted, an
 * invoice order), read back figure by figure. The audit log dates a subscription's changes by the
 * database's clock, so the period is cut at an instant read from that clock between the two
 * halves: a "last month" in which the book is built, and a "this month" in which it moves.
 */
describe.each(databaseTargets)('the console dashboard on $name', (target) => {
  let t: TestApp;
  const realNow = new Date();
  beforeAll(async () => {
    t = await createTestApp(target, {
      now: realNow,
      env: { LICENSE_VALIDATION_CACHE_SECONDS: '0', LICENSE_VALIDATION_RATE_LIMIT: '0' },
    });
  });
  afterAll(() => t.close());

  const db = () => t.deps.database.db;
  const databaseNow = async () => {
    const result = await db().execute(sql`select clock_timestamp() as now`);
    const [row] = z
      .object({ rows: z.array(z.object({ now: z.coerce.date() })) })
      .parse(result).rows;
    if (!row) throw new Error('no clock');
    // Audit times are kept to the millisecond: keep every event clear of the cut.
    await new Promise((resolve) => setTimeout(resolve, 20));
    return row.now;
  };

  async function buy(email: string, request: CheckoutRequestInput) {
    const { sessionId } = await createCheckout(t, request);
    expect((await payLocally(t, sessionId, { email, card: successCard })).status).toBe(303);
    const [licence] = await licencesOf(t, email);
    if (!licence?.customerId || !licence.subscriptionId) throw new Error('no licence');
    const { url } = await t.deps.payments.createBillingPortalSession({
      customerId: licence.customerId,
      returnUrl: 'http://localhost:3000/',
    });
    return { licence, portal: new URL(url).pathname, subscriptionId: licence.subscriptionId };
  }

  async function trial(email: string): Promise<string> {
    const answer = await requestTrial(t, { emailAddress: email, productId: siteConfig.productId });
    expect(answer.status).toBe(204);
    const key = licenceKeyPattern.exec((await mailsTo(t, email)).at(-1)?.textBody ?? '')?.[0];
    if (!key) throw new Error('no trial key mailed');
    return key;
  }

  let started: Date;
  let cut: Date;
  let end: Date;
  let validKey: string;

  it('seeds a book, then moves it: upgrade, downgrade, cancellation, new, a trial converted', async () => {
    started = await databaseNow();
    // Last month's book.
    const grower = await buy('grower@acme.test', pro(5, 'monthly', 'USD')); // $630
    const leaver = await buy('leaver@acme.test', pro(4, 'monthly', 'USD')); // $495
    const shrinker = await buy('shrinker@acme.test', pro(10, 'yearly', 'EUR')); // €13,046 / 12
    await buy('stayer@acme.test', pro(5, 'monthly', 'EUR')); // €583
    const converting = await trial('converting@acme.test');
    validKey = await trial('trying@acme.test');
    await orderAndConfirm(t, {
      ...enterpriseOrder('ap@invoiced.test'),
      edition: 'Pro',
      quantity: 4,
    });

    cut = await databaseNow();
    // This month.
    const upgraded = await browser(
      t,
      `${grower.portal}/subscriptions/${grower.subscriptionId}/plan`,
      {
        edition: 'Pro',
        quantity: '8',
      },
    );
    expect(upgraded.headers.get('location')).toContain('done=plan-changed');
    const downgraded = await browser(
      t,
      `${shrinker.portal}/subscriptions/${shrinker.subscriptionId}/plan`,
      { edition: 'Pro', quantity: '6' },
    );
    expect(downgraded.headers.get('location')).toContain('done=plan-changed');
    const cancelled = await browser(
      t,
      `${leaver.portal}/subscriptions/${leaver.subscriptionId}/cancel`,
      {},
    );
    expect(cancelled.headers.get('location')).toContain('done=cancellation-scheduled');
    // The provider ends it at its period's end (and renews the monthly ones, at the same price).
    t.setNow(new Date(realNow.getTime() + 32 * DAY));
    await runLocalBilling(t.deps);
    t.setNow(realNow);
    expect((await licencesOf(t, 'leaver@acme.test'))[0]?.status).toBe('Cancelled');

    const { sessionId } = await createCheckout(t, {
      ...pro(4, 'monthly', 'USD'),
      trialLicenseKeyToConvert: converting,
    });
    await payLocally(t, sessionId, { email: 'converting@acme.test', card: successCard });
    expect((await licencesOf(t, 'converting@acme.test'))[0]?.type).toBe('Paid');
    await buy('newcomer@acme.test', pro(4, 'monthly', 'EUR')); // €458
    await trial('late@acme.test');
    end = await databaseNow();
  });

  it('reads every figure of the period that moved, and new + expansion − contraction − churn = ΔMRR', async () => {
    const figures = await periodFigures(db(), cut, end, end);
    expect(figures.trials).toEqual({ started: 1, converted: 0, final: false });
    expect(figures.mrr).toEqual([
      movement({
        currency: 'EUR',
        startMinor: 108_717 + 58_300 + 41_217,
        endMinor: 63_717 + 58_300 + 41_217 + 45_800,
        newMinor: 45_800,
        newCount: 1,
        contractionMinor: 45_000,
        contractionCount: 1,
        payingAtEnd: 4,
      }),
      movement({
        currency: 'USD',
        startMinor: 63_000 + 49_500,
        endMinor: 103_500 + 49_500,
        newMinor: 49_500,
        newCount: 1,
        expansionMinor: 40_500,
        expansionCount: 1,
        churnedMinor: 49_500,
        churnedCount: 1,
        payingAtEnd: 2,
      }),
    ]);
    for (const row of figures.mrr) expect(identityHolds(row)).toBe(true);

    // The trials of both halves: three started, the one converted within 60 days counted.
    expect((await periodFigures(db(), started, end, end)).trials).toEqual({
      started: 3,
      converted: 1,
      final: false,
    });
  });

  it('answers a viewer the month with the trend, licences, invoices, orgs in use and validations', async () => {
    expect(
      (
        await postJson(t, '/account/v1/licenses/validate', {
          licenseKey: validKey,
          productId: siteConfig.productId,
          orgId: orgId(7),
        })
      ).status,
    ).toBe(200);
    // A refused answer (another product) counts as a validation too.
    expect(
      (
        await postJson(t, '/account/v1/licenses/validate', {
          licenseKey: validKey,
          productId: 'another-product',
          orgId: orgId(7),
        })
      ).status,
    ).toBe(200);
    // The instance adds its counts once a minute (decision 244): here, by running the job once.
    await validationTallyJob(db(), t.deps.validationTally, t.deps.logger).run(
      new AbortController().signal,
    );
    // The app reads "now" from its own clock: after everything seeded.
    t.setNow(new Date(end.getTime() + 1000));
    const viewer = await signedInOperator(t, 'viewer');
    const month = end.toISOString().slice(0, 7);
    const answer = await viewer.request(`dashboard?month=${month}`);
    expect(answer.status).toBe(200);
    const view = (await answer.json()) as DashboardView;
    expect(view.month).toBe(month);
    expect(view.months).toHaveLength(12);
    expect(
      view.months.slice(0, 11).every((m) => m.mrr.length === 0 && m.trials.started === 0),
    ).toBe(true);
    // The database started empty this month: everything paying is new.
    expect(view.months[11]).toEqual({
      month,
      trials: { started: 3, converted: 1, final: false },
      mrr: [
        movement({
          currency: 'EUR',
          endMinor: 63_717 + 58_300 + 41_217 + 45_800,
          newMinor: 63_717 + 58_300 + 41_217 + 45_800,
          newCount: 4,
          payingAtEnd: 4,
        }),
        movement({
          currency: 'USD',
          endMinor: 103_500 + 49_500,
          newMinor: 103_500 + 49_500,
          newCount: 2,
          payingAtEnd: 2,
        }),
      ],
    });
    expect(view.activePaidLicences).toEqual({ Starter: 0, Pro: 6, Enterprise: 0 });
    // The invoice order's invoice: €4,946 + 19 % VAT, due in 14 days.
    expect(view.invoices).toEqual([
      { currency: 'EUR', open: 1, openMinor: 588_574, overdue: 0, overdueMinor: 0 },
    ]);
    expect(view.openInvoiceSubscriptions).toEqual({ open: 1, overdue: 0 });
    const today = view.usage.at(-1);
    expect(today).toEqual({
      day: end.toISOString().slice(0, 10),
      orgs: 1,
      validations: 2,
      refused: 1,
    });
    expect(view.usage.slice(0, -1).every((day) => day.orgs === 0 && day.validations === 0)).toBe(
      true,
    );

    // A month later the invoice is overdue.
    const later = await readDashboard(db(), month, new Date(realNow.getTime() + 32 * DAY));
    expect(later.invoices).toEqual([
      { currency: 'EUR', open: 1, openMinor: 588_574, overdue: 1, overdueMinor: 588_574 },
    ]);
    expect(later.openInvoiceSubscriptions).toEqual({ open: 1, overdue: 1 });
  });

  it('refuses a bad month or a month not begun with 400; reading needs a session, and there is nothing to post', async () => {
    const viewer = await signedInOperator(t, 'viewer');
    const next = new Date(Date.UTC(realNow.getUTCFullYear(), realNow.getUTCMonth() + 1, 1));
    for (const bad of ['2026-13', '2026-1', 'last', '2026-11-01', next.toISOString().slice(0, 7)]) {
      const answer = await viewer.request(`dashboard?month=${encodeURIComponent(bad)}`);
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ Error: 'InvalidRequest' });
    }
    expect((await viewer.request('dashboard?month=2026-01&extra=1')).status).toBe(400);
    expect((await viewer.request('dashboard')).status).toBe(200);
    expect((await viewer.request('dashboard', { method: 'POST', body: {} })).status).toBe(404);
    const anonymous = await t.consoleApp.request('/console/api/dashboard');
    expect(anonymous.status).toBe(401);
  });
});
