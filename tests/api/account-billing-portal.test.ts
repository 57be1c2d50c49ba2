import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_PORTAL_LINKS } from '#server/billing/billing-portal/build-portal-links.ts';
import {
  billingPortalTokenUses,
  emailOutbox,
  licences,
  localCustomers,
  subscriptions,
  trialClaims,
} from '#server/platform/db/schema.ts';
import { issueLicence } from '#server/licensing/licences/issue-licence.ts';
import type { PaymentProvider } from '#server/billing/subscriptions/payment-provider.ts';
import type { CheckoutRequestInput } from '#shared/contracts/checkout.ts';
import { databaseTargets } from '../support/databases.ts';
import { createTestApp, csrfHeaders, type TestApp } from '../support/test-app.ts';
import { outboxRows, postJson, requestTrial } from './account-support.ts';
import {
  browser,
  createCheckout,
  payLocally,
  pro10YearlyEur,
  successCard,
} from './checkout-support.ts';

const MANAGE = '/account/v1/manage';
const OPEN = '/account/v1/billing-portal';
const LINK = /http:\/\/localhost:3000\/billing-portal\?token=([\w.%-]+)/g;

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
    await db.delete(subscriptions);
  });

  interface Purchase {
    customerId?: string;
    edition?: 'Starter' | 'Pro' | 'Enterprise';
    quantity?: number;
    billingPeriod?: 'monthly' | 'yearly';
    currency?: 'USD' | 'EUR';
    createdAt?: Date;
  }

  /** A paid licence of `email` under a payment customer, with its mirrored subscription. */
  async function buy(email: string, purchase: Purchase = {}) {
    const {
      customerId = 'cus_TEST123',
      edition = 'Pro',
      quantity = 5,
      billingPeriod = 'monthly',
      currency = 'USD',
    } = purchase;
    const db = t.deps.database.db;
    // The local provider opens portals only for customers it knows. These stand in for Stripe
    // customers, several per address and currency, so each is keyed by its id, not the address.
    await db
      .insert(localCustomers)
      .values({ id: customerId, email, emailNormalized: customerId, currency })
      .onConflictDoNothing();
    const subscriptionId = `sub_${customerId}_${randomUUID().slice(0, 8)}`;
    const issued = await db.transaction((tx) =>
      issueLicence(tx, t.deps.secretKey, {
        type: 'Paid',
        edition,
        quantity,
        email,
        productId: 'orgsmith-cli',
        expiresAt: null,
        customerId,
        subscriptionId,
        subscriptionStatus: 'active',
        addressRule: 'any',
      }),
    );
    if (!issued.ok) throw new Error('licence not issued');
    const now = t.deps.clock();
    await db.insert(subscriptions).values({
      provider: 'local',
      subscriptionId,
      licenceId: issued.licence.id,
      customerId,
      status: 'active',
      edition,
      quantity,
      billingPeriod,
      currency,
      currentPeriodEnd: new Date(now.getTime() + 30 * 86_400_000),
      cancelAtPeriodEnd: false,
      snapshotReadAt: now,
    });
    if (purchase.createdAt) {
      await db
        .update(licences)
        .set({ createdAt: purchase.createdAt })
        .where(eq(licences.id, issued.licence.id));
    }
    return issued.licence;
  }

  /** The token of every portal link of the newest e-mail, in the order the e-mail shows them. */
  async function linksFromMail(): Promise<string[]> {
    const mail = (await outboxRows(t)).at(-1);
    return [...(mail?.textBody ?? '').matchAll(LINK)].map((match) =>
      decodeURIComponent(match[1] ?? ''),
    );
  }

  async function linkFromMail(): Promise<string> {
    const [token] = await linksFromMail();
    if (!token) throw new Error('no portal link in the e-mail');
    return token;
  }

  /** The landing page's button: the link's token, POSTed; the portal's URL when it opened. */
  async function follow(token: string): Promise<{ status: number; url: string; error: string }> {
    const response = await postJson(t, OPEN, { token });
    const body: unknown = await response.json();
    const field = (name: string) =>
      typeof body === 'object' && body !== null ? String(Reflect.get(body, name) ?? '') : '';
    return { status: response.status, url: field('url'), error: field('Error') };
  }

  const refused = { status: 410, url: '', error: 'BillingPortalLinkInvalid' };

  it('answers every address the same way, whatever it holds', async () => {
    await buy('paid@example.com');
    await buy('two@example.com', { customerId: 'cus_TWO_A' });
    await buy('two@example.com', { customerId: 'cus_TWO_B' });
    expect(
      (await requestTrial(t, { emailAddress: 'trial@example.com', productId: 'orgsmith-cli' }))
        .status,
    ).toBe(204);
    const answers = [];
    for (const emailAddress of [
      'paid@example.com',
      'two@example.com',
      'trial@example.com',
      'nobody@example.com',
    ]) {
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
    expect(answers[3]).toEqual(answers[0]);
    const kinds = (await outboxRows(t)).map((row) => row.kind);
    expect(kinds).toEqual([
      'trial-licence',
      'billing-portal-link',
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

    const first = await postJson(t, OPEN, { token: link });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({
      url: expect.stringMatching(
        /^http:\/\/localhost:3000\/billing\/local\/portal\/lps_[\w-]{20,}$/,
      ),
    });
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(portalCalls).toEqual([
      { customerId: 'cus_TEST123', returnUrl: 'http://localhost:3000/' },
    ]);

    expect(await follow(link)).toEqual(refused);
    expect(portalCalls).toHaveLength(1);
  });

  it('lets only one of two simultaneous clicks through', async () => {
    await buy('race@example.com');
    await postJson(t, MANAGE, { emailAddress: 'race@example.com' });
    const link = await linkFromMail();
    const results = await Promise.all([follow(link), follow(link), follow(link)]);
    expect(results.filter((result) => result.url.includes('/billing/local/portal/'))).toHaveLength(
      1,
    );
    expect(results.filter((result) => result.status === 410)).toHaveLength(2);
  });

  it('refuses a link after 24 hours', async () => {
    await buy('late@example.com');
    await postJson(t, MANAGE, { emailAddress: 'late@example.com' });
    const link = await linkFromMail();
    t.setNow(new Date('2026-01-16T10:00:00Z'));
    expect(await follow(link)).toEqual(refused);
    expect(portalCalls).toEqual([]);
  });

  it('refuses forged and truncated tokens with the same answer', async () => {
    await buy('forge@example.com');
    await postJson(t, MANAGE, { emailAddress: 'forge@example.com' });
    const link = await linkFromMail();
    const [payload = '', signature = ''] = link.split('.');
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
    ]) {
      expect(await follow(bad)).toEqual(refused);
    }
    expect((await postJson(t, OPEN, { token: '' })).status).toBe(400);
    expect(portalCalls).toEqual([]);
    expect((await follow(link)).url).toContain('/billing/local/portal/');
  });

  it('keeps the link usable when the payment provider fails', async () => {
    await buy('retry@example.com');
    await postJson(t, MANAGE, { emailAddress: 'retry@example.com' });
    const link = await linkFromMail();
    failPortal = true;
    expect(await follow(link)).toEqual({
      status: 503,
      url: '',
      error: 'PaymentProviderUnavailable',
    });
    failPortal = false;
    expect((await follow(link)).url).toContain('/billing/local/portal/');
  });

  it('refuses a link whose licence is gone', async () => {
    await buy('deleted@example.com');
    await postJson(t, MANAGE, { emailAddress: 'deleted@example.com' });
    const link = await linkFromMail();
    await t.deps.database.db.delete(licences);
    expect(await follow(link)).toEqual(refused);
  });

  it('e-mails a buyer with two payment customers one labelled link each; each opens its own portal', async () => {
    const older = await buy('twice@example.com', {
      customerId: 'cus_FIRST',
      quantity: 5,
      createdAt: new Date('2025-03-01T00:00:00Z'),
    });
    const newer = await buy('twice@example.com', {
      customerId: 'cus_SECOND',
      quantity: 12,
      billingPeriod: 'yearly',
      currency: 'EUR',
      createdAt: new Date('2025-09-01T00:00:00Z'),
    });
    expect((await postJson(t, MANAGE, { emailAddress: 'Twice@Example.com' })).status).toBe(204);
    const mails = await outboxRows(t);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail).toMatchObject({
      kind: 'billing-portal-link',
      toAddress: 'twice@example.com',
      subject: 'Your links to the Orgsmith billing portal',
    });
    const text = mail?.textBody ?? '';
    expect(text).toContain('billed to 2 separate billing accounts');
    // Newest purchase first, each with its plan, billing and key ending (never the key).
    const accountOne = text.slice(
      text.indexOf('Billing account 1'),
      text.indexOf('Billing account 2'),
    );
    const accountTwo = text.slice(text.indexOf('Billing account 2'));
    expect(accountOne).toContain(
      `Subscription: Orgsmith Pro, 12 orgs · billed yearly in EUR · key ending in ${newer.keyHint}`,
    );
    expect(accountTwo).toContain(
      `Subscription: Orgsmith Pro, 5 orgs · billed monthly in USD · key ending in ${older.keyHint}`,
    );
    expect(text).not.toMatch(/ORGS(?:-[0-9A-Z]{4}){7}/);
    expect(text).toContain('Each link works once and until 16 January 2026, 10:00 UTC.');

    const [newerLink, olderLink] = await linksFromMail();
    if (!newerLink || !olderLink) throw new Error('expected two links');
    expect(accountOne).toContain(newerLink);
    expect(accountTwo).toContain(olderLink);

    expect((await follow(olderLink)).url).toContain('/billing/local/portal/');
    expect(portalCalls).toEqual([{ customerId: 'cus_FIRST', returnUrl: 'http://localhost:3000/' }]);

    // Using one customer's link leaves the other's usable, and each works once.
    expect((await follow(newerLink)).url).toContain('/billing/local/portal/');
    expect(portalCalls.map((call) => call.customerId)).toEqual(['cus_FIRST', 'cus_SECOND']);
    expect(await follow(olderLink)).toEqual(refused);
    expect(await follow(newerLink)).toEqual(refused);
    expect(portalCalls).toHaveLength(2);
  });

  it('leads a buyer who paid in USD and then in EUR through the local provider to both subscriptions', async () => {
    const email = 'local-twice@example.com';
    const orders: CheckoutRequestInput[] = [
      { ...pro10YearlyEur, quantity: 6, billingPeriod: 'monthly', billingCurrency: 'USD' },
      pro10YearlyEur,
    ];
    for (const order of orders) {
      const { sessionId } = await createCheckout(t, order);
      expect((await payLocally(t, sessionId, { email, card: successCard })).status).toBe(303);
    }
    await postJson(t, MANAGE, { emailAddress: email });
    const mail = (await outboxRows(t)).at(-1);
    expect(mail?.kind).toBe('billing-portal-link');
    expect(mail?.textBody).toContain('Orgsmith Pro, 10 orgs · billed yearly in EUR');
    expect(mail?.textBody).toContain('Orgsmith Pro, 6 orgs · billed monthly in USD');

    const pages: string[] = [];
    for (const link of await linksFromMail()) {
      const { url } = await follow(link);
      expect(url).toContain('/billing/local/portal/');
      pages.push(await (await browser(t, new URL(url).pathname)).text());
    }
    expect(pages).toHaveLength(2);
    expect(pages[0]).toContain('Orgsmith Pro, 10 orgs');
    expect(pages[0]).not.toContain('Orgsmith Pro, 6 orgs');
    expect(pages[1]).toContain('Orgsmith Pro, 6 orgs');
    expect(pages[1]).not.toContain('Orgsmith Pro, 10 orgs');
    expect(new Set(portalCalls.map((call) => call.customerId)).size).toBe(2);
  });

  it('groups the subscriptions of one customer under one link', async () => {
    await buy('grouped@example.com', { customerId: 'cus_GROUP', quantity: 4 });
    await buy('grouped@example.com', {
      customerId: 'cus_GROUP',
      edition: 'Enterprise',
      quantity: 25,
    });
    await postJson(t, MANAGE, { emailAddress: 'grouped@example.com' });
    const mail = (await outboxRows(t)).at(-1);
    expect(mail?.subject).toBe('Your link to the Orgsmith billing portal');
    expect(mail?.textBody).toContain('here is the link to manage your Orgsmith subscriptions.');
    expect(mail?.textBody).toContain('Subscription: Orgsmith Pro, 4 orgs');
    expect(mail?.textBody).toContain('Subscription: Orgsmith Enterprise · billed monthly in USD');
    const links = await linksFromMail();
    expect(links).toHaveLength(1);
    await follow(links[0] ?? '');
    expect(portalCalls.map((call) => call.customerId)).toEqual(['cus_GROUP']);
  });

  it(`caps the e-mail at ${MAX_PORTAL_LINKS} links and says how many accounts are left out`, async () => {
    for (let i = 0; i < MAX_PORTAL_LINKS + 1; i++) {
      await buy('many@example.com', {
        customerId: `cus_MANY_${i}`,
        createdAt: new Date(Date.UTC(2025, 0, 1 + i)),
      });
    }
    await postJson(t, MANAGE, { emailAddress: 'many@example.com' });
    expect(await linksFromMail()).toHaveLength(MAX_PORTAL_LINKS);
    const text = (await outboxRows(t)).at(-1)?.textBody ?? '';
    expect(text).toContain(`billed to ${MAX_PORTAL_LINKS + 1} separate billing accounts`);
    expect(text).toContain('1 more billing account is not listed');
    // The oldest customer is the one left out.
    for (const link of await linksFromMail()) {
      expect((await follow(link)).url).toContain('/billing/local/portal/');
    }
    expect(portalCalls.map((call) => call.customerId)).not.toContain('cus_MANY_0');
    expect(new Set(portalCalls.map((call) => call.customerId)).size).toBe(MAX_PORTAL_LINKS);
  });

  it('refuses a link whose licence moved to another customer after the e-mail was sent', async () => {
    const licence = await buy('moved@example.com', { customerId: 'cus_BEFORE' });
    await postJson(t, MANAGE, { emailAddress: 'moved@example.com' });
    const [link] = await linksFromMail();
    await t.deps.database.db
      .update(licences)
      .set({ customerId: 'cus_AFTER' })
      .where(eq(licences.id, licence.id));
    expect(await follow(link ?? '')).toEqual(refused);
    expect(portalCalls).toEqual([]);
  });

  it('refuses one customer’s token re-signed for the other customer', async () => {
    await buy('swap@example.com', { customerId: 'cus_SWAP_A', createdAt: new Date('2025-01-01') });
    await buy('swap@example.com', { customerId: 'cus_SWAP_B', createdAt: new Date('2025-02-01') });
    await postJson(t, MANAGE, { emailAddress: 'swap@example.com' });
    const [linkB, linkA] = await linksFromMail();
    const [payloadA = '', signatureA = ''] = (linkA ?? '').split('.');
    const swapped = Buffer.from(
      JSON.stringify({
        ...JSON.parse(Buffer.from(payloadA, 'base64url').toString()),
        c: 'cus_SWAP_B',
      }),
    ).toString('base64url');
    expect(await follow(`${swapped}.${signatureA}`)).toEqual(refused);
    expect(portalCalls).toEqual([]);
    // Both genuine links still work.
    expect((await follow(linkA ?? '')).url).toContain('/portal/');
    expect((await follow(linkB ?? '')).url).toContain('/portal/');
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
