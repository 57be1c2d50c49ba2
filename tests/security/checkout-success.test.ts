import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createStripeClient } from '#server/billing/payments/stripe/stripe-client.ts';
import { syncStripeCatalog } from '#server/billing/payments/stripe/sync-stripe-catalog.ts';
import { startInstance, type Instance } from '../faults/support/instance.ts';
import { startStripeFake, type StripeFake } from '../support/stripe-fake.ts';
import { freePort } from '#tests/support/free-port.ts';
import { germanCompany } from '#tests/api/checkout-support.ts';

/**
 * Issue 17, item 6: `GET /checkout-success?session_id=…` asked Stripe about any id of 8+
 * characters, once per request, without limit. Now a malformed id costs no Stripe call, an
 * answer Stripe gave for good is remembered, and each client gets a bounded number of lookups —
 * while the page keeps its static text for everyone. A real server process on the production
 * build (`npm run build` first), its Stripe provider pointed at the fake.
 */
const secretKey = 'sk_test_checkout_success_security';
const csrf = 'checkout-success-security-csrf';
/** Per client and 10 minutes (rateLimitRules.checkoutStatusPerIp). */
const lookupsPerClient = 30;

let fake: StripeFake;
let instance: Instance;
let dataDir: string;
let clientCounter = 0;

/** A fresh documentation-range client address, so one test's limit never meets another's. */
function freshClient(): string {
  clientCounter++;
  return `203.0.113.${clientCounter}`;
}

/** The instance's PUBLIC_BASE_URL: checkout return URLs must be its pages. */
function origin(): string {
  return `http://localhost:${instance.port}`;
}

function sessionLookups(): number {
  return fake.requests.filter(
    (r) => r.method === 'GET' && r.path.startsWith('/v1/checkout/sessions/'),
  ).length;
}

function stripeCalls(): number {
  return fake.requests.length;
}

function successPage(sessionId: string, client: string): Promise<Response> {
  const query = new URLSearchParams({ session_id: sessionId });
  return fetch(`${instance.url}/checkout-success?${query}`, {
    headers: { 'X-Forwarded-For': client, Accept: 'text/html' },
  });
}

/** The spec's static text of the Checkout Successful page. */
async function expectStaticPage(response: Response): Promise<string> {
  const html = await response.text();
  expect(html).toContain('<h1>Checkout Successful</h1>');
  expect(html).toContain('junk or spam folder');
  expect(html).toContain('Nothing after 10 minutes?');
  return html;
}

/** A hex id of the fake's (and Stripe's) shape that Stripe never issued. */
function unknownSessionId(n: number): string {
  return `cs_test_${n.toString(16).padStart(20, '0')}`;
}

beforeAll(async () => {
  fake = await startStripeFake();
  await syncStripeCatalog(createStripeClient({ secretKey, apiBaseUrl: fake.url }));
  dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-security-checkout-'));
  instance = await startInstance({
    port: await freePort(),
    env: {
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      STRIPE_SECRET_KEY: secretKey,
      STRIPE_WEBHOOK_SECRET: 'whsec_checkout_success_security',
      STRIPE_API_BASE_URL: fake.url,
    },
    // Start-up takes 20 s when the shared machine is busy.
    timeoutMs: 90_000,
  });
}, 120_000);

afterAll(async () => {
  await instance?.stop();
  await fake?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('GET /checkout-success with the Stripe provider', () => {
  it('asks Stripe nothing for 50 malformed ids, and still shows the page', async () => {
    const before = stripeCalls();
    const client = freshClient();
    const malformed = [
      'x'.repeat(8),
      'abcdefgh12345678',
      'lcs_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      'cs_',
      'cs_test_',
      'cs_test_abc/../../v1/customers',
      'cs_test_abc?expand[]=customer',
      'cs_test_abc%00def',
      'cs_test_äöü12345',
      `cs_test_${'a'.repeat(300)}`,
      'sub_1234567890abcdef',
      'CS_TEST_1234567890abcdef',
      ' cs_test_1234567890abcdef',
    ];
    for (let i = 0; malformed.length < 50; i++) malformed.push(`junk-${i}-${'z'.repeat(i % 9)}`);
    for (const id of malformed) {
      const response = await successPage(id, client);
      expect(response.status, id).toBe(200);
      const html = await expectStaticPage(response);
      expect(html).not.toContain('licence key is on its way</strong>');
    }
    expect(stripeCalls() - before).toBe(0);
  });

  it('asks Stripe once about an unknown well-formed id however often it is asked', async () => {
    const before = sessionLookups();
    const id = unknownSessionId(1);
    for (let i = 0; i < 20; i++) {
      // From different clients too: what Stripe said holds for everyone.
      const response = await successPage(id, i % 2 === 0 ? freshClient() : '198.51.100.20');
      expect(response.status).toBe(200);
      await expectStaticPage(response);
    }
    expect(sessionLookups() - before).toBe(1);
  });

  it('refuses a client its lookups over the limit with 429 and the page, and asks Stripe nothing', async () => {
    const client = freshClient();
    const before = sessionLookups();
    for (let i = 0; i < lookupsPerClient; i++) {
      const response = await successPage(unknownSessionId(1000 + i), client);
      expect(response.status).toBe(200);
      await response.body?.cancel();
    }
    expect(sessionLookups() - before).toBe(lookupsPerClient);

    const refused = await successPage(unknownSessionId(2000), client);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('cache-control')).toBe('no-store');
    await expectStaticPage(refused);
    // The page's own revalidation (route data) is the same lookup, refused the same way.
    const data = await fetch(
      `${instance.url}/checkout-success.data?session_id=${unknownSessionId(2001)}`,
      { headers: { 'X-Forwarded-For': client } },
    );
    expect(data.status).toBe(429);
    await data.body?.cancel();
    expect(sessionLookups() - before).toBe(lookupsPerClient);

    // Another client is not affected; what Stripe already answered costs no lookup.
    const other = await successPage(unknownSessionId(2000), freshClient());
    expect(other.status).toBe(200);
    await other.body?.cancel();
    const remembered = await successPage(unknownSessionId(1000), client);
    expect(remembered.status).toBe(200);
    await remembered.body?.cancel();
    expect(sessionLookups() - before).toBe(lookupsPerClient + 1);
  });

  it('still shows a real completed session its licence, asking Stripe about it only once', async () => {
    const created = await fetch(`${instance.url}/account/v1/checkout`, {
      method: 'POST',
      headers: {
        Cookie: `XSRF-TOKEN=${csrf}`,
        'X-XSRF-TOKEN': csrf,
        'Content-Type': 'application/json',
        'X-Forwarded-For': freshClient(),
      },
      body: JSON.stringify({
        edition: 'Pro',
        quantity: 10,
        billingPeriod: 'yearly',
        billingCurrency: 'EUR',
        successUrl: `${origin()}/checkout-success?session_id={CHECKOUT_SESSION_ID}`,
        cancelUrl: `${origin()}/pricing`,
        ...germanCompany,
      }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const { sessionId } = z.object({ sessionId: z.string() }).parse(await created.json());
    fake.completeCheckoutSession(sessionId, { email: 'buyer@acme.test' });

    const before = stripeCalls();
    const client = freshClient();
    for (let i = 0; i < 5; i++) {
      const response = await successPage(sessionId, client);
      expect(response.status).toBe(200);
      const html = await expectStaticPage(response);
      expect(html).toContain('Orgsmith Pro (10 orgs)');
      expect(html).toContain('buyer@acme.test');
    }
    const lookups = fake.requests
      .slice(before)
      .filter((r) => r.path === `/v1/checkout/sessions/${sessionId}`);
    expect(lookups).toHaveLength(1);
    // The sync that issued the licence asked for the subscription once; reloads ask nothing.
    const subscriptionReads = fake.requests
      .slice(before)
      .filter((r) => r.method === 'GET' && r.path.startsWith('/v1/subscriptions/'));
    expect(subscriptionReads).toHaveLength(1);
  });
});
