import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCheckoutStatus } from '#server/billing/checkout/read-checkout-status.ts';
import {
  licences,
  localCheckoutSessions,
  localCustomers,
  localInvoices,
  paymentEvents,
  subscriptions,
} from '#server/platform/db/schema.ts';
import { hashLicenceKey } from '#server/licensing/licences/licence-key.ts';
import { cardDeclinedAtCheckout } from '#server/billing/payments/local/local-routes.ts';
import { syncDepsOf } from '#server/billing/subscriptions/sync-subscription.ts';
import { KEEP_TRIAL_KEY_PATH } from '#shared/contracts/keep-trial-key.ts';
import { failureMessages } from '#shared/contracts/messages.ts';
import { postJson } from './account-support.ts';
import { databaseTargets } from '../support/databases.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import {
  browser,
  createCheckout,
  declineCard,
  issueTrial,
  licenceKeyPattern,
  licencesOf,
  mailsTo,
  payLocally,
  pro10YearlyEur,
  successCard,
} from './checkout-support.ts';

/** The pages' markup with every run of whitespace as one space. */
const flat = (html: string) => html.replace(/\s+/g, ' ');

describe.each(databaseTargets)('buying through the local provider on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target, { now: new Date('2026-01-15T10:00:00Z') });
  });
  afterAll(() => t.close());

  it('shows the order and total from the engine, marked TEST MODE, with the test cards', async () => {
    const { sessionId } = await createCheckout(t, pro10YearlyEur);
    const page = await browser(t, `/billing/local/checkout/${sessionId}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    // The URL is a bearer link: the page sends no referrer (header, not a <meta> tag).
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const html = flat(await page.text());
    expect(html).not.toContain('name="referrer"');
    expect(html).toContain('TEST MODE');
    expect(html).toContain('Orgsmith Pro');
    // EUR yearly: base 4,946 + 6 × 1,350 = 13,046 (shared/pricing).
    expect(html).toContain('€4,946');
    expect(html).toContain('6 additional orgs × €1,350');
    // Net €13,046 and, without a billing address, German VAT: what the receipt says was paid.
    expect(html).toContain('€13,046');
    expect(html).toContain('VAT 19 %');
    expect(html).toContain('€2,478.74');
    expect(html).toContain('€15,524.74 per year');
    expect(html).toContain('Pay €15,524.74');
    expect(html).toContain('4242 4242 4242 4242');
    expect(html).toContain('4000 0000 0000 0002');
    expect(html).toContain('<input type="hidden" name="_csrf" value="test-csrf-token"/>');
    expect(html).toContain(
      'href="http://localhost:3000/pricing?size=10&amp;period=yearly&amp;currency=EUR"',
    );
  });

  it('sets the CSRF cookie first when a visitor arrives without it', async () => {
    const { sessionId } = await createCheckout(t, pro10YearlyEur);
    const first = await t.app.request(`/billing/local/checkout/${sessionId}`);
    expect(first.status).toBe(200);
    expect(first.headers.get('set-cookie')).toMatch(/^XSRF-TOKEN=/);
    expect(first.headers.get('referrer-policy')).toBe('no-referrer');
    expect(flat(await first.text())).toContain(
      `<meta http-equiv="refresh" content="0; url=/billing/local/checkout/${sessionId}?cookie=1"/>`,
    );
    const still = await t.app.request(`/billing/local/checkout/${sessionId}?cookie=1`);
    expect(still.status).toBe(400);
    expect(await still.text()).toContain('Cookies needed');
  });

  it('pays with the success card: Paid licence, key by e-mail, redirect to the success URL', async () => {
    const { sessionId } = await createCheckout(t, pro10YearlyEur);
    const paid = await payLocally(t, sessionId, { email: 'Buyer@Acme.test', card: successCard });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(
      `http://localhost:3000/checkout-success?session_id=${sessionId}`,
    );
    // The redirect leaves the bearer link: the success page must not see it as its referrer.
    expect(paid.headers.get('referrer-policy')).toBe('no-referrer');

    const [licence] = await licencesOf(t, 'buyer@acme.test');
    expect(licence).toMatchObject({
      type: 'Paid',
      edition: 'Pro',
      quantity: 10,
      status: 'Active',
      email: 'Buyer@Acme.test',
      subscriptionStatus: 'active',
      expiresAt: new Date('2027-01-15T10:00:00Z'),
    });
    expect(licence?.customerId).toMatch(/^lcus_/);
    expect(licence?.subscriptionId).toMatch(/^lsub_/);

    const mails = await mailsTo(t, 'Buyer@Acme.test');
    expect(mails.map((mail) => mail.kind)).toEqual(['licence-key']);
    const key = mails[0]?.textBody?.match(licenceKeyPattern)?.[0];
    expect(key).toBeDefined();
    expect(hashLicenceKey(t.deps.secretKey, key ?? '')).toBe(licence?.keyHash);
    expect(mails[0]?.textBody).toContain('Orgsmith Pro, 10 orgs');
    expect(mails[0]?.textBody).toContain('Licence e-mail address: Buyer@Acme.test');

    // The three events Stripe would send were recorded, and the first invoice was paid.
    const events = await t.deps.database.db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.subscriptionId, licence?.subscriptionId ?? ''));
    expect(events.map((event) => event.type).sort()).toEqual([
      'checkout.session.completed',
      'customer.subscription.created',
      'invoice.paid',
    ]);
    const invoices = await t.deps.database.db
      .select()
      .from(localInvoices)
      .where(eq(localInvoices.subscriptionId, licence?.subscriptionId ?? ''));
    expect(invoices.map((invoice) => [invoice.status, invoice.amount, invoice.currency])).toEqual([
      ['paid', 1_304_600, 'EUR'],
    ]);

    // Submitting again (a double click) changes nothing and redirects again.
    const again = await payLocally(t, sessionId, { email: 'Buyer@Acme.test', card: successCard });
    expect(again.status).toBe(303);
    expect(await licencesOf(t, 'buyer@acme.test')).toHaveLength(1);
    expect(await mailsTo(t, 'Buyer@Acme.test')).toHaveLength(1);

    const status = await readCheckoutStatus(syncDepsOf(t.deps), sessionId);
    expect(status).toEqual({
      state: 'issued',
      edition: 'Pro',
      quantity: 10,
      email: 'Buyer@Acme.test',
      converted: false,
    });
  });

  it('shows the decline alone for the decline card and keeps what was typed', async () => {
    const { sessionId } = await createCheckout(t, pro10YearlyEur);
    const declined = await payLocally(t, sessionId, {
      email: 'declined@acme.test',
      card: declineCard,
    });
    expect(declined.status).toBe(402);
    const html = flat(await declined.text());
    expect(html).toContain('role="alert"');
    // One message, the decline: not the generic billing error beside it.
    expect(html).toContain(cardDeclinedAtCheckout.title);
    expect(html).toContain(cardDeclinedAtCheckout.message);
    expect(html).not.toContain(failureMessages.billing);
    expect(html).not.toContain('Something went wrong');
    expect(html).toContain('value="declined@acme.test"');
    expect(html).toContain('value="4000 0000 0000 0002"');
    expect(await licencesOf(t, 'declined@acme.test')).toEqual([]);
    const [session] = await t.deps.database.db
      .select()
      .from(localCheckoutSessions)
      .where(eq(localCheckoutSessions.id, sessionId));
    expect(session?.status).toBe('open');
    expect(await readCheckoutStatus(syncDepsOf(t.deps), sessionId)).toEqual({ state: 'open' });
  });

  it('reports field errors without charging', async () => {
    const { sessionId } = await createCheckout(t, pro10YearlyEur);
    const response = await payLocally(t, sessionId, {
      email: 'not-an-address',
      card: { cardNumber: '5555 5555 5555 4444', cardExpiry: '01/20', cardCvc: '1' },
    });
    expect(response.status).toBe(400);
    const html = flat(await response.text());
    expect(html).toContain('This is not a valid email address.');
    expect(html).toContain('Test mode accepts only the test cards shown on this page.');
    expect(html).toContain('This card has expired.');
    expect(html).toContain('Enter the 3- or 4-digit security code.');
    expect(html).toContain('aria-invalid="true"');
    const [session] = await t.deps.database.db
      .select()
      .from(localCheckoutSessions)
      .where(eq(localCheckoutSessions.id, sessionId));
    expect(session).toMatchObject({ status: 'open', subscriptionId: null });
  });

  it('gives Starter a Free licence without a card field', async () => {
    const { sessionId } = await createCheckout(t, {
      ...pro10YearlyEur,
      edition: 'Starter',
      quantity: 3,
      billingPeriod: 'monthly',
    });
    const page = await (await browser(t, `/billing/local/checkout/${sessionId}`)).text();
    expect(page).not.toContain('name="cardNumber"');
    expect(page).toContain('Get my free licence');
    const done = await payLocally(t, sessionId, { email: 'free@acme.test' });
    expect(done.status).toBe(303);
    const [licence] = await licencesOf(t, 'free@acme.test');
    expect(licence).toMatchObject({ type: 'Free', edition: 'Starter', quantity: 3 });
    expect((await mailsTo(t, 'free@acme.test')).map((mail) => mail.kind)).toEqual(['licence-key']);
  });

  it('gives a card purchase with a trial’s address its own key and a link that keeps the trial key (decision 213)', async () => {
    const trial = await issueTrial(t, 'trial.user@acme.test');
    const { sessionId } = await createCheckout(t, pro10YearlyEur);
    await payLocally(t, sessionId, { email: 'Trial.User+billing@acme.test', card: successCard });
    const owned = await licencesOf(t, 'trial.user@acme.test');
    expect(owned).toHaveLength(2);
    expect(owned.find((licence) => licence.id === trial.id)).toMatchObject({ type: 'Trial' });
    const [keyMail] = await mailsTo(t, 'Trial.User+billing@acme.test');
    expect(keyMail?.kind).toBe('licence-key');
    expect(keyMail?.textBody).toContain(
      `Keep using your trial key (ending in ${trial.key.slice(-4)})`,
    );
    expect(await readCheckoutStatus(syncDepsOf(t.deps), sessionId)).toMatchObject({
      state: 'issued',
      converted: false,
    });

    const token = /\/keep-trial-key\?token=([A-Za-z0-9_.-]+)/.exec(keyMail?.textBody ?? '')?.[1];
    const kept = await postJson(t, KEEP_TRIAL_KEY_PATH, { token });
    expect(kept.status).toBe(200);
    expect(
      (await licencesOf(t, 'trial.user@acme.test')).find((licence) => licence.id === trial.id),
    ).toMatchObject({
      type: 'Paid',
      edition: 'Pro',
      quantity: 10,
      keyHash: hashLicenceKey(t.deps.secretKey, trial.key),
    });
    const mails = await mailsTo(t, 'trial.user@acme.test');
    expect(mails.map((mail) => mail.kind)).toEqual(['trial-converted']);
    expect(mails[0]?.textBody).not.toMatch(licenceKeyPattern);
    expect(mails[0]?.textBody).toContain(`ends in ${trial.key.slice(-4)}`);
  });

  it('converts the trial named by its key, whatever address the buyer types', async () => {
    const trial = await issueTrial(t, 'named@acme.test');
    const { sessionId } = await createCheckout(t, {
      ...pro10YearlyEur,
      trialLicenseKeyToConvert: trial.key,
    });
    const page = flat(await (await browser(t, `/billing/local/checkout/${sessionId}`)).text());
    expect(page).toMatch(/<input id="email"[^>]*value="named@acme.test"[^>]*readonly/);
    await payLocally(t, sessionId, { email: 'someone.else@acme.test', card: successCard });
    const [licence] = await t.deps.database.db
      .select()
      .from(licences)
      .where(eq(licences.id, trial.id));
    expect(licence).toMatchObject({ type: 'Paid', email: 'named@acme.test' });
    expect(await licencesOf(t, 'someone.else@acme.test')).toEqual([]);
  });

  it('keeps one customer per buyer and currency, as Stripe does (decision 093)', async () => {
    const pay = async (email: string, billingCurrency: 'USD' | 'EUR') => {
      const { sessionId } = await createCheckout(t, { ...pro10YearlyEur, billingCurrency });
      expect((await payLocally(t, sessionId, { email, card: successCard })).status).toBe(303);
    };
    await pay('Repeat.Buyer@gmail.com', 'EUR');
    await pay('repeatbuyer+second@gmail.com', 'EUR');
    await pay('repeat.buyer@gmail.com', 'USD');
    const bought = await licencesOf(t, 'repeatbuyer@gmail.com');
    expect(bought).toHaveLength(3);
    const customers = await t.deps.database.db
      .select()
      .from(localCustomers)
      .where(eq(localCustomers.emailNormalized, 'repeatbuyer@gmail.com'));
    expect(customers.map((customer) => customer.currency).sort()).toEqual(['EUR', 'USD']);
    const eur = customers.find((customer) => customer.currency === 'EUR');
    const usd = customers.find((customer) => customer.currency === 'USD');
    // Both EUR purchases share one customer; the USD purchase has its own.
    expect(bought.map((licence) => licence.customerId).sort()).toEqual(
      [eur?.id, eur?.id, usd?.id].sort(),
    );
  });

  it('keeps a subscription mirror with the licence it pays for', async () => {
    const rows = await t.deps.database.db.select().from(subscriptions);
    expect(rows.length).toBeGreaterThanOrEqual(4);
    expect(rows.every((row) => row.provider === 'local' && row.licenceId)).toBe(true);
  });

  it('answers an unknown or expired checkout with a page, not an error', async () => {
    expect((await browser(t, '/billing/local/checkout/lcs_nope')).status).toBe(404);
    const { sessionId } = await createCheckout(t, pro10YearlyEur);
    t.setNow(new Date('2026-01-16T10:00:01Z'));
    try {
      const expired = await browser(t, `/billing/local/checkout/${sessionId}`);
      expect(expired.status).toBe(410);
      expect(await expired.text()).toContain('This checkout has expired.');
      expect(await readCheckoutStatus(syncDepsOf(t.deps), sessionId)).toEqual({
        state: 'expired',
      });
    } finally {
      t.setNow(new Date('2026-01-15T10:00:00Z'));
    }
    expect(await readCheckoutStatus(syncDepsOf(t.deps), 'lcs_unknown_session')).toEqual({
      state: 'unknown',
    });
    expect(await readCheckoutStatus(syncDepsOf(t.deps), null)).toEqual({ state: 'unknown' });
  });
});
