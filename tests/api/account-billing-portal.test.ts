import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  billingPortalTokenUses,
  emailOutbox,
  licences,
  localCustomers,
  trialClaims,
} from '../../server/db/schema.ts';
import { issueLicence } from '../../server/licences/issue-licence.ts';
import type { PaymentProvider } from '../../server/payments/payment-provider.ts';
import { databaseTargets } from '../helpers/databases.ts';
import { createTestApp, csrfHeaders, type TestApp } from '../helpers/test-app.ts';
import { outboxRows, postJson, requestTrial } from './account-support.ts';

const MANAGE = '/account/v1/manage';
const EXPIRED = 'http://localhost:3000/?modal=portal-access&portalLink=expired';

describe.each(databaseTargets)('billing-portal access on $name', (target) => {
  let t: TestApp;
  let portalCalls: Array<{ customerId: string; returnUrl: string }>;
  let failPortal: boolean;

  beforeAll(async () => {
    t = await createTestApp(target);
    const local = t.deps.payments;
    const recording: PaymentProvider = {
      ...local,
      async createBillingPortalSession(input) {
        portalCalls.push(input);
        if (failPortal) throw new Error('provider down');
        return local.createBillingPortalSession(input);
      },
    };
    t.deps.payments = recording;
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    portalCalls = [];
    failPortal = false;
    t.setNow(new Date('2026-01-15T10:00:00Z'));
    const db = t.deps.database.db;
    await db.delete(licences);
    await db.delete(trialClaims);
    await db.delete(emailOutbox);
    await db.delete(billingPortalTokenUses);
  });

  async function buy(email: string, customerId = 'cus_TEST123') {
    // The local provider opens portals only for customers it knows.
    await t.deps.database.db
      .insert(localCustomers)
      .values({ id: customerId, email, emailNormalized: email })
      .onConflictDoNothing();
    await t.deps.database.db.transaction((tx) =>
      issueLicence(tx, t.deps.secretKey, {
        type: 'Paid',
        edition: 'Pro',
        quantity: 5,
        email,
        productId: 'orgsmith-cli',
        expiresAt: null,
        customerId,
        subscriptionId: `sub_${customerId}`,
        subscriptionStatus: 'active',
        addressRule: 'any',
      }),
    );
  }

  async function linkFromMail(): Promise<string> {
    const mails = await outboxRows(t);
    const mail = mails.at(-1);
    const link = /http:\/\/localhost:3000\/account\/v1\/billing-portal\?token=[\w.%-]+/.exec(
      mail?.textBody ?? '',
    )?.[0];
    if (!link) throw new Error('no portal link in the e-mail');
    return link.replace('http://localhost:3000', '');
  }

  it('answers every address the same way, whatever it holds', async () => {
    await buy('paid@example.com');
    expect(
      (await requestTrial(t, { emailAddress: 'trial@example.com', productId: 'orgsmith-cli' }))
        .status,
    ).toBe(204);
    const answers = [];
    for (const emailAddress of ['paid@example.com', 'trial@example.com', 'nobody@example.com']) {
      const res = await postJson(t, MANAGE, { emailAddress });
      answers.push({
        status: res.status,
        body: await res.text(),
        type: res.headers.get('content-type'),
      });
    }
    expect(answers[0]).toEqual({ status: 204, body: '', type: null });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    const kinds = (await outboxRows(t)).map((row) => row.kind);
    expect(kinds).toEqual([
      'trial-licence',
      'billing-portal-link',
      'billing-portal-trial-only',
      'billing-portal-no-subscription',
    ]);
  });

  it('e-mails a subscriber a link that opens the provider portal once', async () => {
    await buy('Owner.Name@gmail.com');
    expect(
      (await postJson(t, MANAGE, { emailAddress: 'ownername+billing@googlemail.com' })).status,
    ).toBe(204);
    const [mail] = await outboxRows(t);
    expect(mail).toMatchObject({
      kind: 'billing-portal-link',
      toAddress: 'Owner.Name@gmail.com',
      subject: 'Your link to the Orgsmith billing portal',
    });
    expect(mail?.textBody).toContain(
      'upgrade, downgrade or cancel your subscription and edit your billing information',
    );
    expect(mail?.textBody).toContain('The link works once and until 16 January 2026, 10:00 UTC.');
    const link = await linkFromMail();

    const first = await t.app.request(link);
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toMatch(
      /^http:\/\/localhost:3000\/billing\/local\/portal\/lps_[\w-]{20,}$/,
    );
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(portalCalls).toEqual([
      { customerId: 'cus_TEST123', returnUrl: 'http://localhost:3000/' },
    ]);

    const second = await t.app.request(link);
    expect(second.status).toBe(303);
    expect(second.headers.get('location')).toBe(EXPIRED);
    expect(portalCalls).toHaveLength(1);
  });

  it('lets only one of two simultaneous clicks through', async () => {
    await buy('race@example.com');
    await postJson(t, MANAGE, { emailAddress: 'race@example.com' });
    const link = await linkFromMail();
    const results = await Promise.all([
      t.app.request(link),
      t.app.request(link),
      t.app.request(link),
    ]);
    const locations = results.map((res) => res.headers.get('location') ?? '');
    expect(
      locations.filter((location) => location.includes('/billing/local/portal/')),
    ).toHaveLength(1);
    expect(locations.filter((location) => location === EXPIRED)).toHaveLength(2);
  });

  it('refuses a link after 24 hours', async () => {
    await buy('late@example.com');
    await postJson(t, MANAGE, { emailAddress: 'late@example.com' });
    const link = await linkFromMail();
    t.setNow(new Date('2026-01-16T10:00:00Z'));
    const res = await t.app.request(link);
    expect(res.headers.get('location')).toBe(EXPIRED);
    expect(portalCalls).toEqual([]);
  });

  it('refuses forged, truncated and missing tokens with the same friendly redirect', async () => {
    await buy('forge@example.com');
    await postJson(t, MANAGE, { emailAddress: 'forge@example.com' });
    const link = await linkFromMail();
    const token = decodeURIComponent(link.split('token=')[1] ?? '');
    const [payload = '', signature = ''] = token.split('.');
    const otherPayload = Buffer.from(
      JSON.stringify({
        ...JSON.parse(Buffer.from(payload, 'base64url').toString()),
        e: 4102444800,
      }),
    ).toString('base64url');
    for (const bad of [
      `${otherPayload}.${signature}`,
      `${payload}.${signature.slice(1)}x`,
      payload,
      'garbage',
      '',
    ]) {
      const res = await t.app.request(
        `/account/v1/billing-portal?token=${encodeURIComponent(bad)}`,
      );
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(EXPIRED);
    }
    expect((await t.app.request('/account/v1/billing-portal')).headers.get('location')).toBe(
      EXPIRED,
    );
    expect(portalCalls).toEqual([]);
    expect((await t.app.request(link)).headers.get('location')).toContain('/billing/local/portal/');
  });

  it('keeps the link usable when the payment provider fails', async () => {
    await buy('retry@example.com');
    await postJson(t, MANAGE, { emailAddress: 'retry@example.com' });
    const link = await linkFromMail();
    failPortal = true;
    const failed = await t.app.request(link);
    expect(failed.headers.get('location')).toBe(
      'http://localhost:3000/?modal=portal-access&portalLink=unavailable',
    );
    failPortal = false;
    const retried = await t.app.request(link);
    expect(retried.headers.get('location')).toContain('/billing/local/portal/');
    // The link carries a token: the redirect must not pass it on as a referrer.
    expect(retried.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('refuses a link whose licence is gone', async () => {
    await buy('deleted@example.com');
    await postJson(t, MANAGE, { emailAddress: 'deleted@example.com' });
    const link = await linkFromMail();
    await t.deps.database.db.delete(licences);
    expect((await t.app.request(link)).headers.get('location')).toBe(EXPIRED);
  });

  it('explains to a trial holder that trials cannot be managed and how to buy', async () => {
    await requestTrial(t, { emailAddress: 'tina@example.com', productId: 'orgsmith-cli' });
    await postJson(t, MANAGE, { emailAddress: 'TINA@example.com' });
    const mail = (await outboxRows(t)).at(-1);
    expect(mail).toMatchObject({
      kind: 'billing-portal-trial-only',
      toAddress: 'tina@example.com',
    });
    expect(mail?.textBody).toContain('Trial licences cannot be managed');
    expect(mail?.textBody).toContain('valid until 15 March 2026');
    expect(mail?.textBody).toContain('http://localhost:3000/pricing');
    expect(mail?.textBody).not.toContain('billing-portal?token');
  });

  it('tells an unknown address where to find the purchase address', async () => {
    await postJson(t, MANAGE, { emailAddress: 'stranger@example.com' });
    const [mail] = await outboxRows(t);
    expect(mail).toMatchObject({
      kind: 'billing-portal-no-subscription',
      toAddress: 'stranger@example.com',
    });
    expect(mail?.textBody).toContain('bottom of your licence key e-mail');
  });

  it.each([
    ['a missing address', {}, 400, 'emailAddress: You must enter an email address.'],
    ['an invalid address', { emailAddress: 'x@y' }, 400, 'This is not a valid email address.'],
    ['an unknown field', { emailAddress: 'a@example.com', plan: 1 }, 400, 'Unknown fields: plan.'],
    ['a wrong type', { emailAddress: ['a@example.com'] }, 400, 'Expected text.'],
    ['malformed JSON', '{"emailAddress":', 400, 'not valid JSON'],
  ])('answers %s with 400 and sends nothing', async (_label, body, status, message) => {
    const res = await postJson(t, MANAGE, body);
    expect(res.status).toBe(status);
    const json = await res.json();
    expect(json.Error).toBe('InvalidRequest');
    expect(json.message).toContain(message);
    expect(await outboxRows(t)).toEqual([]);
  });

  it('refuses other content types, oversize bodies and requests without CSRF header', async () => {
    const form = await postJson(t, MANAGE, 'emailAddress=a@example.com', {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    const text = await postJson(t, MANAGE, '{"emailAddress":"a@example.com"}', {
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    const big = await postJson(t, MANAGE, {
      emailAddress: 'a@example.com',
      pad: 'x'.repeat(17_000),
    });
    expect(big.status).toBe(413);
    const noCsrf = await t.app.request(MANAGE, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"emailAddress":"a@example.com"}',
    });
    expect(noCsrf.status).toBe(403);
    const withCsrf = await postJson(t, MANAGE, '{"emailAddress":"a@example.com"}', {
      headers: { ...csrfHeaders('other-token') },
    });
    expect(withCsrf.status).toBe(204);
    expect((await outboxRows(t)).map((row) => row.toAddress)).toEqual(['a@example.com']);
  });
});
