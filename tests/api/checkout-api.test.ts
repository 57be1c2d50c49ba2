import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localCheckoutSessions } from '#server/platform/db/schema.ts';
import { generateLicenceKey } from '#server/licensing/licences/licence-key.ts';
import { billingErrorMessage } from '#shared/contracts/messages.ts';
import { databaseTargets } from '../support/databases.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import {
  cancelUrl,
  createCheckout,
  issueTrial,
  payLocally,
  postCheckout,
  pro10YearlyEur,
  successCard,
  successUrl,
} from './checkout-support.ts';

describe.each(databaseTargets)('POST /account/v1/checkout on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(() => t.close());

  const sessionCount = async () =>
    (await t.deps.database.db.select().from(localCheckoutSessions)).length;

  it('opens a local hosted checkout for Pro, 10 orgs, yearly, EUR', async () => {
    const response = await postCheckout(t, pro10YearlyEur);
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = await response.json();
    expect(Object.keys(body).sort()).toEqual(['sessionId', 'url']);
    expect(body.url).toBe(`http://localhost:3000/billing/local/checkout/${body.sessionId}`);
    const [session] = await t.deps.database.db
      .select()
      .from(localCheckoutSessions)
      .where(eq(localCheckoutSessions.id, body.sessionId));
    expect(session).toMatchObject({
      status: 'open',
      edition: 'Pro',
      quantity: 10,
      billingPeriod: 'yearly',
      currency: 'EUR',
      successUrl,
      cancelUrl,
      customerEmail: null,
      licenceIdToConvert: null,
    });
  });

  it('accepts Starter (3) and Enterprise (25)', async () => {
    for (const [edition, quantity] of [
      ['Starter', 3],
      ['Enterprise', 25],
    ] as const) {
      const response = await postCheckout(t, { ...pro10YearlyEur, edition, quantity });
      expect(response.status).toBe(201);
    }
  });

  describe('refuses bad input with a clear 400 and writes nothing', () => {
    const cases: Array<[string, unknown, number, string]> = [
      ['malformed JSON', '{"edition":', 400, 'InvalidRequest'],
      ['a JSON array', '[]', 400, 'InvalidRequest'],
      ['an unknown field', { ...pro10YearlyEur, coupon: 'FREE' }, 400, 'InvalidRequest'],
      [
        'a missing field',
        Object.fromEntries(Object.entries(pro10YearlyEur).filter(([k]) => k !== 'billingPeriod')),
        400,
        'InvalidRequest',
      ],
      ['a wrong type', { ...pro10YearlyEur, quantity: '10' }, 400, 'InvalidRequest'],
      ['an unknown edition', { ...pro10YearlyEur, edition: 'Gold' }, 400, 'InvalidRequest'],
      ['an unknown currency', { ...pro10YearlyEur, billingCurrency: 'GBP' }, 400, 'InvalidRequest'],
      ['Pro with 3 orgs', { ...pro10YearlyEur, quantity: 3 }, 400, 'InvalidRequest'],
      ['Pro with 25 orgs', { ...pro10YearlyEur, quantity: 25 }, 400, 'InvalidRequest'],
      [
        'Enterprise with 24',
        { ...pro10YearlyEur, edition: 'Enterprise', quantity: 24 },
        400,
        'InvalidRequest',
      ],
      [
        'Starter with 4',
        { ...pro10YearlyEur, edition: 'Starter', quantity: 4 },
        400,
        'InvalidRequest',
      ],
      [
        'a success URL elsewhere',
        { ...pro10YearlyEur, successUrl: 'https://evil.example/thanks' },
        400,
        'InvalidRequest',
      ],
      [
        'a cancel URL elsewhere',
        { ...pro10YearlyEur, cancelUrl: 'http://localhost:3001/pricing' },
        400,
        'InvalidRequest',
      ],
      ['a relative URL', { ...pro10YearlyEur, cancelUrl: '/pricing' }, 400, 'InvalidRequest'],
      ['an oversize body', { ...pro10YearlyEur, pad: 'x'.repeat(20_000) }, 413, 'PayloadTooLarge'],
    ];
    for (const [name, body, status, code] of cases) {
      it(name, async () => {
        const before = await sessionCount();
        const response = await postCheckout(t, body);
        expect(response.status).toBe(status);
        const json = await response.json();
        expect(json.Error).toBe(code);
        expect(typeof json.message).toBe('string');
        expect(await sessionCount()).toBe(before);
      });
    }

    it('another content type', async () => {
      const response = await postCheckout(t, JSON.stringify(pro10YearlyEur), {
        'Content-Type': 'text/plain',
      });
      expect(response.status).toBe(415);
      expect((await response.json()).Error).toBe('UnsupportedMediaType');
    });

    it('a request without the CSRF token', async () => {
      const response = await t.app.request('/account/v1/checkout', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(pro10YearlyEur),
      });
      expect(response.status).toBe(403);
      expect((await response.json()).Error).toBe('CsrfTokenInvalid');
    });
  });

  describe('trialLicenseKeyToConvert', () => {
    it('LicenseKeyUnknown for a key we never issued, malformed or well-formed', async () => {
      const { key } = await issueTrial(t, 'unknown-test@acme.test');
      // A valid key (checksum and all) that was never issued, and a typo of an issued one.
      const typo = key.slice(0, -1) + (key.endsWith('0') ? '1' : '0');
      for (const candidate of ['not-a-key', generateLicenceKey(), typo]) {
        const before = await sessionCount();
        const response = await postCheckout(t, {
          ...pro10YearlyEur,
          trialLicenseKeyToConvert: candidate,
        });
        expect(response.status).toBe(400);
        expect(await response.json()).toEqual({
          Error: 'LicenseKeyUnknown',
          message: billingErrorMessage('LicenseKeyUnknown'),
        });
        expect(await sessionCount()).toBe(before);
      }
    });

    it('carries a trial to convert: its licence and address go to the session', async () => {
      const trial = await issueTrial(t, 'Convert.Me@acme.test');
      const typed = ` ${trial.key.toLowerCase().replaceAll('-', ' ')} `;
      const { sessionId } = await createCheckout(t, {
        ...pro10YearlyEur,
        trialLicenseKeyToConvert: typed,
      });
      const [session] = await t.deps.database.db
        .select()
        .from(localCheckoutSessions)
        .where(eq(localCheckoutSessions.id, sessionId));
      expect(session).toMatchObject({
        licenceIdToConvert: trial.id,
        customerEmail: 'Convert.Me@acme.test',
      });
    });

    it('SubscriptionAlreadyExists once the trial belongs to a subscription', async () => {
      const trial = await issueTrial(t, 'tied@acme.test');
      const { sessionId } = await createCheckout(t, {
        ...pro10YearlyEur,
        trialLicenseKeyToConvert: trial.key,
      });
      const paid = await payLocally(t, sessionId, { email: 'tied@acme.test', card: successCard });
      expect(paid.status).toBe(303);
      const before = await sessionCount();
      const response = await postCheckout(t, {
        ...pro10YearlyEur,
        trialLicenseKeyToConvert: trial.key,
      });
      expect(response.status).toBe(409);
      expect(await response.json()).toEqual({
        Error: 'SubscriptionAlreadyExists',
        message: billingErrorMessage('SubscriptionAlreadyExists'),
      });
      expect(await sessionCount()).toBe(before);
    });

    it('an empty key counts as none', async () => {
      const response = await postCheckout(t, { ...pro10YearlyEur, trialLicenseKeyToConvert: '' });
      expect(response.status).toBe(201);
    });
  });
});
