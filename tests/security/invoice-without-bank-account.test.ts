import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServerBuild } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson } from '#tests/api/account-support.ts';
import { databaseTargets } from '../support/databases.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

/**
 * A deployment without a bank account in a currency must not take orders by invoice in it: the
 * buyer would get an invoice with nowhere to pay (decision 218). The site, rendered by the
 * production build (`npm run build`), does not offer it; a direct request is refused.
 */
describe('no pay by invoice in a currency without the seller’s bank account', () => {
  let t: TestApp;
  beforeAll(async () => {
    const serverBuild: ServerBuild = await import(
      pathToFileURL(path.resolve('build/server/index.js')).href
    );
    t = await createTestApp(
      databaseTargets[0] ?? { name: 'pglite', open: () => Promise.reject() },
      { env: { BANK_ACCOUNT_USD: 'none' }, options: { serverBuild } },
    );
  });
  afterAll(() => t?.close());

  /** The company dialog's "An order paid by invoice" radio, as the server renders it. */
  async function invoiceChoice(currency: 'USD' | 'EUR'): Promise<string> {
    const res = await t.app.request(
      `/pricing?size=10&period=yearly&currency=${currency}&modal=quote`,
    );
    expect(res.status).toBe(200);
    const html = await res.text();
    return /<input[^>]*value="invoice"[^>]*>/.exec(html)?.[0] ?? '';
  }

  it('the company dialog offers the invoice in EUR, not in USD, and says why', async () => {
    const eur = await invoiceChoice('EUR');
    expect(eur).toContain('type="radio"');
    expect(eur).not.toContain('disabled');
    const usd = await invoiceChoice('USD');
    expect(usd).toContain('disabled');
    const html = await (
      await t.app.request('/pricing?size=10&period=yearly&currency=USD&modal=quote')
    ).text();
    expect(html).toContain('Pay by invoice is not offered in USD: pay by card, or get a quote.');
  });

  it('an order sent around the site is refused (400) in USD', async () => {
    const res = await postJson(t, '/account/v1/checkout/invoice', {
      edition: 'Pro',
      quantity: 10,
      billingPeriod: 'yearly',
      billingCurrency: 'USD',
      companyName: 'Initech Inc.',
      billingEmail: 'ap@initech-no-account.test',
      addressLine: '1 Market St',
      postalCode: '94105',
      city: 'San Francisco',
      country: 'US',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ issues: [{ field: 'billingCurrency' }] });
  });
});
