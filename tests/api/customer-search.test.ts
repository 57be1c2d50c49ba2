import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { customerStory } from '#server/features/customers/customer-story.ts';
import { searchCustomers } from '#server/features/customers/customer-search-repository.ts';
import { databaseTargets } from '../support/databases.ts';
import { createLicence, orgId, postJson, runAdminOn } from '../support/licensing.ts';
import { postJson as postForm } from './account-support.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import {
  createCheckout,
  germanCompany,
  mailsTo,
  payLocally,
  pro10YearlyEur,
  successCard,
} from './checkout-support.ts';

const VALIDATE = '/account/v1/licenses/validate';

describe.each(databaseTargets)('the one search and a customer’s story on $name', (target) => {
  let t: TestApp;
  const buyer = 'Grace.Search+billing@Example.com';
  const normalized = 'grace.search@example.com';
  let key = '';
  let licenceId = '';
  let quoteNumber = '';
  let documentNumber = '';
  let customerId = '';
  let subscriptionId = '';

  const search = (text: string) =>
    searchCustomers({ db: t.deps.database.db, secretKey: t.deps.secretKey }, text);

  beforeAll(async () => {
    t = await createTestApp(target, {
      env: { LICENSE_VALIDATION_CACHE_SECONDS: '0', LICENSE_VALIDATION_RATE_LIMIT: '0' },
    });
    // A card purchase: licence, subscription, receipt.
    const { sessionId } = await createCheckout(t, {
      ...pro10YearlyEur,
      companyName: 'Hopper Analytics GmbH',
    });
    expect((await payLocally(t, sessionId, { email: buyer, card: successCard })).status).toBe(303);
    const keyMail = (await mailsTo(t, buyer)).find((mail) => mail.kind === 'licence-key');
    key = /ORGS(?:-[0-9A-Z]{4}){7}/.exec(keyMail?.textBody ?? '')?.[0] ?? '';
    const [licence] = z
      .object({
        rows: z.array(
          z.object({ id: z.string(), customer_id: z.string(), subscription_id: z.string() }),
        ),
      })
      .parse(
        await t.deps.database.db.execute(
          `select id, customer_id, subscription_id from licences where email_normalized = '${normalized}'`,
        ),
      ).rows;
    if (!licence || !key) throw new Error('not bought');
    licenceId = licence.id;
    customerId = licence.customer_id;
    subscriptionId = licence.subscription_id;
    const [document] = z
      .object({ rows: z.array(z.object({ number: z.string() })) })
      .parse(
        await t.deps.database.db.execute(
          `select number from payment_documents where buyer_email_normalized = '${normalized}'`,
        ),
      ).rows;
    documentNumber = document?.number ?? '';
    // An org at work.
    const validated = await postJson(t, VALIDATE, {
      licenseKey: key,
      productId: 'orgsmith-cli',
      orgId: orgId(7),
    });
    expect(validated.status).toBe(200);
    // A quote in another spelling of the address.
    const quote = await postForm(t, '/account/v1/quotes', {
      ...germanCompany,
      companyName: 'Hopper Analytics GmbH',
      emailAddress: 'GRACE.SEARCH@example.com',
      edition: 'Pro',
      quantity: 4,
      billingPeriod: 'yearly',
      billingCurrency: 'EUR',
    });
    expect(quote.status).toBe(201);
    quoteNumber = z.object({ number: z.string() }).parse(await quote.json()).number;
    // Someone else, whose company shares no prefix.
    await createLicence(t, { email: 'other@example.org' });
  });
  afterAll(() => t.close());

  it('finds the customer by every kind of thing a ticket names', async () => {
    const expectations: Array<[string, string, RegExp]> = [
      ['grace.search+other@EXAMPLE.com', 'address', /^licence …/],
      [key.toLowerCase(), 'licence key', /^licence key …/],
      [key.replaceAll('-', ' '), 'licence key', /^licence key …/],
      [licenceId.toUpperCase(), 'licence id', /^licence /],
      [orgId(7), 'org id', /^org 00D5g0000000007/],
      [quoteNumber.toLowerCase(), 'quote', /^quote Q-/],
      [documentNumber, 'document', /^document /],
      [customerId, 'provider customer', /^customer /],
      [subscriptionId, 'provider subscription', /^subscription /],
      ['hopper an', 'company name', /^company Hopper Analytics GmbH$/],
    ];
    for (const [text, kind, matched] of expectations) {
      const result = await search(text);
      expect({ text, kind: result.kind }).toEqual({ text, kind });
      expect(result.hits).toHaveLength(1);
      expect(result.hits[0]?.customer).toBe(normalized);
      expect(result.hits[0]?.matched).toMatch(matched);
    }
  });

  it('finds nothing for a key with a group missing, a typo, wildcards, one letter or too much text', async () => {
    const groups = key.split('-');
    for (const text of [
      groups.slice(0, -1).join('-'),
      `${groups.slice(0, -1).join('-')}-ZZZZ`,
      '%',
      '_opper',
      'h',
      'x'.repeat(201),
      '   ',
      'nobody@example.com',
      '00D5g0000000999',
      'Q-2026-9999',
    ]) {
      expect((await search(text)).hits).toEqual([]);
    }
  });

  it('tells the whole story of the customer under every spelling, without secrets', async () => {
    const story = await customerStory(
      { db: t.deps.database.db, secretKey: t.deps.secretKey, clock: t.deps.clock },
      'GRACE.search@example.com',
    );
    if (!story) throw new Error('no story');
    expect(story.customer).toBe(normalized);
    expect(story.spellings).toEqual(expect.arrayContaining([buyer, 'GRACE.SEARCH@example.com']));
    const [licence] = story.licences;
    expect(licence).toMatchObject({
      id: licenceId,
      type: 'Paid',
      edition: 'Pro',
      state: 'valid',
      orgLimit: 10,
      orgsInUse: 1,
      maskedKey: `ORGS-…-${key.slice(-4)}`,
    });
    expect(licence?.orgs[0]?.orgId).toMatch(/^00D5g0000000007/);
    expect(licence?.orgs[0]?.countsUntil.getTime()).toBe(
      (licence?.orgs[0]?.lastSeenAt.getTime() ?? 0) + 30 * 86_400_000,
    );
    expect(story.subscriptions[0]?.subscriptionId).toBe(subscriptionId);
    expect(story.quotes.map((quote) => quote.number)).toEqual([quoteNumber]);
    expect(story.documents.map((document) => document.number)).toContain(documentNumber);
    expect(story.emails.map((email) => email.kind)).toContain('licence-key');
    expect(story.audit.map((event) => event.action)).toEqual(
      expect.arrayContaining(['licence.created', 'quote.created']),
    );
    const text = JSON.stringify(story);
    expect(text).not.toContain(key);
    expect(text).not.toMatch(/key_?hash|token_?hash/i);
    expect(
      await customerStory(
        { db: t.deps.database.db, secretKey: t.deps.secretKey, clock: t.deps.clock },
        'nobody@example.com',
      ),
    ).toBeNull();
  });

  it('prints search and story at the CLI, and refuses what it cannot read', async () => {
    const found = await runAdminOn(t, 'customers', 'search', 'Hopper');
    expect(found.code).toBe(0);
    expect(found.out).toMatch(/^CUSTOMER\s+E-MAIL\s+MATCHED\n/);
    expect(found.out).toContain(normalized);
    expect((await runAdminOn(t, 'customers', 'search', 'zzz-nothing')).out).toBe(
      'No customer found (read as company name).',
    );
    const shown = await runAdminOn(t, 'customers', 'show', buyer);
    expect(shown.code).toBe(0);
    for (const heading of [
      'Licences (1)',
      'Orgs of',
      'Subscriptions (1)',
      'Quotes (1)',
      'Audit trail',
    ]) {
      expect(shown.out).toContain(heading);
    }
    const json = await runAdminOn(t, 'customers', 'show', buyer, '--json');
    expect(JSON.parse(json.out)).toMatchObject({ customer: normalized });
    expect(await runAdminOn(t, 'customers', 'search')).toMatchObject({ code: 2 });
    expect(await runAdminOn(t, 'customers', 'show', 'no-address')).toMatchObject({ code: 2 });
    expect(await runAdminOn(t, 'customers', 'show', 'nobody@example.com')).toMatchObject({
      code: 1,
    });
  });
});
