import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxRows, postJson } from '../api/account-support.ts';
import { databaseTargets } from '../support/databases.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

/**
 * Issue 25, smaller item 2: a quote e-mail goes to any address typed in and echoed the typed
 * company name, links included, in its plain-text part: a phishing relay from our domain. No text
 * from an unverified visitor becomes a link in an e-mail we send (decision 159). Bidi and
 * zero-width characters no longer get that far: the contract refuses them (decision 208).
 */
const lure = [
  'Acme',
  'https://evil.example/login',
  'www.evil.example',
  'evil.example',
  'support@evil.example',
  'Ltd',
].join(' ');
const invisibleLures = ['Acme evil\u200B.example Ltd', 'Acme \u202Eexe.txt\u202C Ltd'];
/** What the lure carried: its domain (in any link form), its bidi trick. */
const injected = /evil|exe\.txt|[\u200B\u202A-\u202E\u2066-\u2069]/i;

describe.each(databaseTargets)('visitor text in e-mails on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(() => t.close());

  it('a quote e-mail echoes the company name and PO without anything a client would link', async () => {
    const response = await postJson(t, '/account/v1/quotes', {
      companyName: lure,
      emailAddress: 'victim@example.com',
      addressLine: 'Hauptstraße 1',
      postalCode: '10115',
      city: 'Berlin',
      country: 'DE',
      purchaseOrder: 'PO-1 http://evil.example/po',
      edition: 'Enterprise',
      quantity: 25,
      billingPeriod: 'yearly',
      billingCurrency: 'USD',
    });
    expect(response.status).toBe(201);
    const [mail] = (await outboxRows(t)).filter((row) => row.kind === 'quote');
    expect(mail?.toAddress).toBe('victim@example.com');
    const text = mail?.textBody ?? '';
    const html = mail?.htmlBody ?? '';
    expect(text).toContain('for Acme Ltd. It is valid until');
    expect(text).toContain('Purchase order: PO-1\n');
    for (const body of [text, html, mail?.subject ?? '']) expect(body).not.toMatch(injected);
  });

  it('a company name with zero-width or bidi characters is refused and nothing is mailed', async () => {
    const before = (await outboxRows(t)).length;
    for (const companyName of invisibleLures) {
      const response = await postJson(t, '/account/v1/quotes', {
        companyName,
        emailAddress: 'victim@example.com',
        addressLine: 'Hauptstraße 1',
        postalCode: '10115',
        city: 'Berlin',
        country: 'DE',
        edition: 'Enterprise',
        quantity: 25,
        billingPeriod: 'yearly',
        billingCurrency: 'USD',
      });
      expect(response.status).toBe(400);
    }
    expect(await outboxRows(t)).toHaveLength(before);
  });
});
