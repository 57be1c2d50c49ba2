import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { verifyPortalToken } from '#server/billing/billing-portal/portal-token.ts';
import {
  readPortalLink,
  readPortalLinkDepsOf,
} from '#server/billing/billing-portal/read-portal-link.ts';
import {
  billingPortalTokenUses,
  emailOutbox,
  licences,
  subscriptions,
  trialClaims,
} from '#server/platform/db/schema.ts';
import type { PaymentProvider } from '#server/billing/subscriptions/payment-provider.ts';
import { portalLinkNotices } from '#shared/contracts/messages.ts';
import { outboxRows, postJson } from '../api/account-support.ts';
import {
  createCheckout,
  payLocally,
  pro10YearlyEur,
  successCard,
} from '../api/checkout-support.ts';
import { startSmtpSink, type SmtpSink } from '#tests/support/smtp-sink.ts';
import { startInstance, type Instance } from '../faults/support/instance.ts';
import { databaseTargets } from '../support/databases.ts';
import { csrfHeaders, createTestApp, type TestApp } from '../support/test-app.ts';
import { freePort } from '#tests/support/free-port.ts';

/**
 * Issue 17, item 8 (decision 123): a GET of a billing-portal link, by a mail scanner or anyone,
 * never uses it; only the landing page's button (a POST with the CSRF token) does. And the links
 * of a customer go only to that customer's own stored address, whatever variant of it is typed.
 */

const MANAGE = '/account/v1/manage';
const OPEN = '/account/v1/billing-portal';
const linkPattern = /https?:\/\/[^\s"<>]+[?&]token=[^\s"<>&]+/g;

function tokenOf(link: string): string {
  return new URL(link).searchParams.get('token') ?? '';
}

/** Every portal link in a text, as path and query (in-process requests take those). */
function linksIn(text: string | null | undefined): string[] {
  return [...(text ?? '').matchAll(linkPattern)].map((match) => match[0]);
}

function pathOf(link: string): string {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

describe.each(databaseTargets)('billing-portal links on $name', (target) => {
  let t: TestApp;
  let portalCalls: string[];

  beforeAll(async () => {
    t = await createTestApp(target, { now: new Date('2026-01-15T10:00:00Z') });
    const local = t.deps.payments;
    const recording: PaymentProvider = {
      ...local,
      async createBillingPortalSession(input) {
        portalCalls.push(input.customerId);
        return local.createBillingPortalSession(input);
      },
    };
    t.deps.payments = recording;
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    portalCalls = [];
    const db = t.deps.database.db;
    await db.delete(subscriptions);
    await db.delete(licences);
    await db.delete(trialClaims);
    await db.delete(emailOutbox);
    await db.delete(billingPortalTokenUses);
  });

  /** A real purchase through the local provider's checkout: licence, customer, mirror. */
  async function buy(email: string, currency: 'USD' | 'EUR') {
    const { sessionId } = await createCheckout(t, { ...pro10YearlyEur, billingCurrency: currency });
    expect((await payLocally(t, sessionId, { email, card: successCard })).status).toBe(303);
    const [licence] = (await t.deps.database.db.select().from(licences)).filter(
      (row) => row.email === email,
    );
    if (!licence?.customerId) throw new Error('no licence with a customer');
    return licence;
  }

  async function tokenUses() {
    return t.deps.database.db.select().from(billingPortalTokenUses);
  }

  async function portalMails() {
    return (await outboxRows(t)).filter((row) => row.kind === 'billing-portal-link');
  }

  async function open(token: unknown, headers: Record<string, string> = {}) {
    return postJson(t, OPEN, { token }, { headers });
  }

  it('a GET of the link, three times, uses nothing; one POST opens the portal; a second is refused', async () => {
    const licence = await buy('scanned@example.com', 'EUR');
    expect((await postJson(t, MANAGE, { emailAddress: 'scanned@example.com' })).status).toBe(204);
    const [link] = linksIn((await portalMails())[0]?.textBody);
    if (!link) throw new Error('no portal link in the e-mail');
    const token = tokenOf(link);
    const accountLink = `${OPEN}?token=${encodeURIComponent(token)}`;

    // What a scanner does: follow the link (and the older account-service form of it).
    for (let i = 0; i < 3; i++) {
      for (const target of [pathOf(link), accountLink]) {
        const response = await t.app.request(target);
        expect(response.status).toBeLessThan(500);
        const location = response.headers.get('location') ?? '';
        expect(location).not.toContain('/billing/local/portal/');
        expect(location).not.toContain('portalLink=');
      }
    }
    // The landing page's own reading of the link (its loader), three times: nothing used.
    for (let i = 0; i < 3; i++) {
      expect(await readPortalLink(readPortalLinkDepsOf(t.deps), token)).toEqual({
        state: 'ready',
        subscription: `Orgsmith Pro, 10 orgs · billed yearly in EUR · key ending in ${licence.keyHint}`,
        validUntil: '16 January 2026, 10:00 UTC',
      });
    }
    expect(portalCalls).toEqual([]);
    expect(await tokenUses()).toEqual([]);
    expect(verifyPortalToken(t.deps.secretKey, token, t.deps.clock())).toMatchObject({ ok: true });

    const first = await open(token);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    const body: unknown = await first.json();
    expect(body).toEqual({
      url: expect.stringMatching(/^http:\/\/localhost:3000\/billing\/local\/portal\/lps_[\w-]+$/),
    });
    expect(portalCalls).toEqual([licence.customerId]);

    const second = await open(token);
    expect(second.status).toBe(410);
    expect(await second.json()).toEqual({
      Error: 'BillingPortalLinkInvalid',
      message: portalLinkNotices.expired,
    });
    expect(portalCalls).toHaveLength(1);
    expect(await readPortalLink(readPortalLinkDepsOf(t.deps), token)).toEqual({ state: 'invalid' });
    // The old GET link of a used token leads to the page, still without opening anything.
    expect((await t.app.request(accountLink)).headers.get('location')).not.toContain('/portal/');
    expect(portalCalls).toHaveLength(1);
  });

  it('refuses malformed, oversized, foreign and CSRF-less requests with a 4xx, opening nothing', async () => {
    await buy('owner@example.com', 'EUR');
    await buy('other@example.com', 'USD');
    await postJson(t, MANAGE, { emailAddress: 'owner@example.com' });
    await postJson(t, MANAGE, { emailAddress: 'other@example.com' });
    const [ownerMail, otherMail] = await portalMails();
    const ownerToken = tokenOf(linksIn(ownerMail?.textBody)[0] ?? 'http://x/?token=');
    const otherToken = tokenOf(linksIn(otherMail?.textBody)[0] ?? 'http://x/?token=');
    const [payload = '', signature = ''] = ownerToken.split('.');
    const other = verifyPortalToken(t.deps.secretKey, otherToken, t.deps.clock());
    if (!other.ok) throw new Error('other token invalid');
    // The owner's signature on a payload that names the other customer.
    const swapped = Buffer.from(
      JSON.stringify({
        ...JSON.parse(Buffer.from(payload, 'base64url').toString()),
        c: other.customerId,
      }),
    ).toString('base64url');

    const cases: Array<[string, () => Response | Promise<Response>, number, string]> = [
      ['no token', () => postJson(t, OPEN, {}), 400, 'InvalidRequest'],
      ['a number', () => open(42), 400, 'InvalidRequest'],
      ['an oversized token', () => open('x'.repeat(5_000)), 400, 'InvalidRequest'],
      ['an unknown field', () => postJson(t, OPEN, { token: ownerToken, c: 1 }), 400, ''],
      ['a query parameter', () => postJson(t, `${OPEN}?token=${ownerToken}`, {}), 400, ''],
      ['malformed JSON', () => postJson(t, OPEN, '{"token":'), 400, 'InvalidRequest'],
      ['garbage', () => open('garbage'), 410, 'BillingPortalLinkInvalid'],
      ['a re-signed token', () => open(`${swapped}.${signature}`), 410, 'BillingPortalLinkInvalid'],
      [
        'a form post',
        () =>
          postJson(t, OPEN, `token=${ownerToken}`, {
            headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          }),
        415,
        '',
      ],
      [
        'no CSRF header',
        () =>
          t.app.request(OPEN, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', Cookie: csrfHeaders().Cookie ?? '' },
            body: JSON.stringify({ token: ownerToken }),
          }),
        403,
        '',
      ],
    ];
    for (const [label, send, status, code] of cases) {
      const response = await send();
      expect(response.status, label).toBe(status);
      if (code) expect(((await response.json()) as { Error?: string }).Error, label).toBe(code);
    }
    expect(portalCalls).toEqual([]);
    expect(await tokenUses()).toEqual([]);
    // Both genuine links still work, each for its own customer.
    expect((await open(ownerToken)).status).toBe(200);
    expect((await open(otherToken)).status).toBe(200);
    const owner = verifyPortalToken(t.deps.secretKey, ownerToken, t.deps.clock());
    expect(portalCalls).toEqual([owner.ok ? owner.customerId : 'invalid', other.customerId]);
  });

  it.each([
    [
      'upper case and a +tag',
      'victim@example.com',
      'victim+evil@example.com',
      'VICTIM@EXAMPLE.COM',
    ],
    ['dotted Gmail', 'Jo.Doe@gmail.com', 'jodoe+team@googlemail.com', 'J.O.D.O.E@GMAIL.COM'],
  ])(
    'sends each customer’s link only to its own stored address (%s)',
    async (_label, victimAddress, lookalike, typed) => {
      const victim = await buy(victimAddress, 'EUR');
      // The look-alike buys later (so it is the newest purchase), in another currency.
      t.setNow(new Date('2026-01-15T11:00:00Z'));
      const stranger = await buy(lookalike, 'USD');
      t.setNow(new Date('2026-01-15T10:00:00Z'));
      expect(victim.customerId).not.toBe(stranger.customerId);

      expect((await postJson(t, MANAGE, { emailAddress: typed })).status).toBe(204);
      const mails = await portalMails();
      const customersByAddress = new Map<string, string[]>();
      for (const mail of mails) {
        const customers = linksIn(mail.textBody).map((link) => {
          const verified = verifyPortalToken(t.deps.secretKey, tokenOf(link), t.deps.clock());
          return verified.ok ? verified.customerId : 'invalid';
        });
        customersByAddress.set(mail.toAddress, [
          ...(customersByAddress.get(mail.toAddress) ?? []),
          ...customers,
        ]);
      }
      expect(Object.fromEntries(customersByAddress)).toEqual({
        [victimAddress]: [victim.customerId],
        [lookalike]: [stranger.customerId],
      });
      expect((await outboxRows(t)).map((row) => row.toAddress)).not.toContain(typed);
    },
  );
});

describe('the landing page on a real server', () => {
  let sink: SmtpSink;
  let instance: Instance;
  let dataDir: string;

  beforeAll(async () => {
    sink = await startSmtpSink({ port: await freePort() });
    dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-portal-link-'));
    instance = await startInstance({
      port: await freePort(),
      env: { DATA_DIR: dataDir, SMTP_URL: sink.url, LOG_LEVEL: 'warn' },
      // A busy machine (CI shares its cores) can take a while to migrate and listen.
      timeoutMs: 90_000,
    });
  }, 120_000);
  afterAll(async () => {
    await instance?.stop();
    await sink?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /** The CSRF cookie and header a browser would send, from the site's own endpoint. */
  async function csrf(): Promise<Record<string, string>> {
    const response = await fetch(`${instance.url}/api/csrf-token`);
    const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const value = cookie.slice(cookie.indexOf('=') + 1);
    return { Cookie: cookie, 'X-XSRF-TOKEN': decodeURIComponent(value) };
  }

  async function postJsonTo(pathname: string, body: unknown, headers: Record<string, string>) {
    return fetch(`${instance.url}${pathname}`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      redirect: 'manual',
    });
  }

  it('renders a per-visit noindex page three times without using the link; its button’s POST does, once', async () => {
    const headers = await csrf();
    const email = 'page-visitor@example.com';
    const site = `http://localhost:${instance.port}`;
    const checkout = await postJsonTo(
      '/account/v1/checkout',
      {
        ...pro10YearlyEur,
        successUrl: `${site}/checkout-success?session_id={CHECKOUT_SESSION_ID}`,
        cancelUrl: `${site}/pricing`,
      },
      headers,
    );
    expect(checkout.status).toBe(201);
    const { url: checkoutUrl } = (await checkout.json()) as { url: string };
    const paid = await fetch(checkoutUrl.replace(/^http:\/\/localhost:\d+/, instance.url), {
      method: 'POST',
      headers: {
        Cookie: headers.Cookie ?? '',
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        _csrf: headers['X-XSRF-TOKEN'] ?? '',
        email,
        ...successCard,
      }).toString(),
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);
    const keyMail = await sink.waitForMail({ to: email, subject: /licence key/i });
    const keyHint = /ORGS(?:-[0-9A-Z]{4}){6}-([0-9A-Z]{4})/.exec(keyMail.text)?.[1] ?? 'none';

    expect((await postJsonTo(MANAGE, { emailAddress: email.toUpperCase() }, headers)).status).toBe(
      204,
    );
    const mail = await sink.waitForMail({ to: email, subject: /billing portal/ });
    const [link] = linksIn(mail.text);
    if (!link) throw new Error('no portal link in the e-mail');
    const pageUrl = `${instance.url}${pathOf(link)}`;

    for (let i = 0; i < 3; i++) {
      // A scanner: no cookies, follows redirects.
      const page = await fetch(pageUrl);
      expect(page.status).toBe(200);
      expect(page.url).toBe(pageUrl);
      expect(page.headers.get('cache-control')).toBe('no-store');
      const html = await page.text();
      expect(html).toContain('<meta name="robots" content="noindex, nofollow"');
      expect(html).toMatch(/<h1[^>]*>Manage your subscription<\/h1>/);
      expect(html).toContain('Open the billing portal</button>');
      expect(html).toContain('Orgsmith Pro, 10 orgs');
      expect(html).toContain(`key ending in ${keyHint}`);
      expect(html).not.toContain(portalLinkNotices.expired);
    }
    // The account service's older form of the link only leads to the page.
    const token = tokenOf(link);
    const older = await fetch(`${instance.url}${OPEN}?token=${encodeURIComponent(token)}`, {
      redirect: 'manual',
    });
    expect(older.status).toBe(303);
    expect(older.headers.get('location')).toBe(link);

    const opened = await postJsonTo(OPEN, { token }, headers);
    expect(opened.status).toBe(200);
    const { url } = (await opened.json()) as { url: string };
    expect(url).toMatch(/\/billing\/local\/portal\/lps_/);
    const again = await postJsonTo(OPEN, { token }, headers);
    expect(again.status).toBe(410);
    // The page now says the link was used and how to get a new one.
    const used = await (await fetch(pageUrl)).text();
    expect(used).toContain(portalLinkNotices.expired);
    expect(used).not.toContain('Open the billing portal</button>');
  });
});
