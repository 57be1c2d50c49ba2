import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emailOutbox, licences, trialClaims } from '#server/platform/db/schema.ts';
import { issueLicence } from '#server/licensing/licences/issue-licence.ts';
import { hashLicenceKey, parseLicenceKey } from '#server/licensing/licences/licence-key.ts';
import { hashEmailAddress } from '#server/platform/email/normalize-email-address.ts';
import { createReferralCodeRepository } from '#server/features/trials/referral-code-repository.ts';
import { databaseTargets } from '../support/databases.ts';
import { createTestApp, csrfHeaders, type TestApp } from '../support/test-app.ts';
import { outboxRows, requestTrial } from './account-support.ts';

const PRODUCT = 'orgsmith-cli';
const trial = (emailAddress: string, extra: Record<string, string> = {}) => ({
  emailAddress,
  productId: PRODUCT,
  ...extra,
});

describe.each(databaseTargets)('POST /account/v1/licenses/trial on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
    const codes = createReferralCodeRepository(t.deps.database.db);
    await codes.save({ code: 'PARTNER-2026', note: 'partner programme' });
    await codes.save({ code: 'OLD-CODE', disabled: true });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    const db = t.deps.database.db;
    await db.delete(licences);
    await db.delete(trialClaims);
    await db.delete(emailOutbox);
  });

  async function counts() {
    const db = t.deps.database.db;
    return {
      licences: (await db.select().from(licences)).length,
      claims: (await db.select().from(trialClaims)).length,
      mails: (await outboxRows(t)).length,
    };
  }

  it('issues a two-month Enterprise trial and e-mails the key, which is stored only as a hash', async () => {
    const res = await requestTrial(t, trial('Jane.Doe@Example.com'));
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');

    const [licence] = await t.deps.database.db.select().from(licences);
    expect(licence).toMatchObject({
      type: 'Trial',
      edition: 'Enterprise',
      quantity: 1,
      status: 'Active',
      email: 'Jane.Doe@Example.com',
      emailNormalized: 'jane.doe@example.com',
      productId: PRODUCT,
      referralCode: null,
      customerId: null,
    });
    expect(licence?.expiresAt?.toISOString()).toBe('2026-03-15T10:00:00.000Z');

    const [mail] = await outboxRows(t);
    expect(mail).toMatchObject({
      kind: 'trial-licence',
      toAddress: 'Jane.Doe@Example.com',
      subject: 'Your Orgsmith trial licence key',
    });
    const text = mail?.textBody ?? '';
    const key = /ORGS(?:-[0-9A-Z]{4}){7}/.exec(text)?.[0] ?? '';
    expect(parseLicenceKey(key)).toEqual({ ok: true, key });
    expect(licence?.keyHash).toBe(hashLicenceKey(t.deps.secretKey, key));
    expect(licence?.keyHint).toBe(key.slice(-4));
    expect(JSON.stringify(licence)).not.toContain(key.slice(5));
    expect(text).toContain('Valid until: 15 March 2026 (UTC)');
    expect(text).toContain('http://localhost:3000/download');
    expect(text).toContain('https://docs.orgsmith.io');
    expect(text).toContain('End User License Agreement: http://localhost:3000/eula/cli');
    expect(text.trimEnd()).toMatch(/Licence e-mail address: Jane\.Doe@Example\.com\n\n-- \n/);
    expect(mail?.htmlBody).toContain(key);
    expect(mail?.htmlBody).toContain('href="http://localhost:3000/eula/cli"');

    const [claim] = await t.deps.database.db.select().from(trialClaims);
    expect(claim).toMatchObject({
      emailHash: hashEmailAddress(t.deps.secretKey, 'jane.doe@example.com'),
      firstLicenceId: licence?.id,
      firstLicenceType: 'Trial',
    });
  });

  it('refuses a second trial for the same address with TrialLicenseAlreadyUsed and writes nothing', async () => {
    expect((await requestTrial(t, trial('sam@example.com'))).status).toBe(204);
    const before = await counts();
    const res = await requestTrial(t, trial(' SAM@example.com '));
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      Error: 'TrialLicenseAlreadyUsed',
      message:
        'The email address has already been used for a trial license which has since expired.',
    });
    expect(await counts()).toEqual(before);
  });

  it.each([
    ['janedoe@googlemail.com', 'Jane.Doe+ci@gmail.com'],
    ['j.a.n.e.d.o.e@gmail.com', 'janedoe+trial2@googlemail.com'],
    ['pat+one@example.com', 'pat+two@example.com'],
    ['pat@example.com', 'PAT+x@EXAMPLE.COM'],
  ])('treats %s and %s as one address', async (first, second) => {
    expect((await requestTrial(t, trial(first))).status).toBe(204);
    const res = await requestTrial(t, trial(second));
    expect(res.status).toBe(409);
    expect(await counts()).toEqual({ licences: 1, claims: 1, mails: 1 });
  });

  it('keeps dots apart outside Gmail', async () => {
    expect((await requestTrial(t, trial('jane.doe@example.com'))).status).toBe(204);
    expect((await requestTrial(t, trial('janedoe@example.com'))).status).toBe(204);
  });

  it('lets exactly one of several concurrent requests for one address win', async () => {
    const variants = [
      'race@gmail.com',
      'r.a.c.e@gmail.com',
      'race+1@gmail.com',
      'RACE@googlemail.com',
      'ra.ce@gmail.com',
    ];
    const responses = await Promise.all(variants.map((address) => requestTrial(t, trial(address))));
    const statuses = responses.map((res) => res.status).sort();
    expect(statuses).toEqual([204, 409, 409, 409, 409]);
    expect(await counts()).toEqual({ licences: 1, claims: 1, mails: 1 });
  });

  it('remembers the address after the licence is deleted', async () => {
    expect((await requestTrial(t, trial('gone@example.com'))).status).toBe(204);
    await t.deps.database.db.delete(licences);
    const res = await requestTrial(t, trial('gone@example.com'));
    expect(res.status).toBe(409);
    expect(await counts()).toMatchObject({ licences: 0, claims: 1 });
  });

  it('refuses a trial to an address that bought a licence', async () => {
    await t.deps.database.db.transaction((tx) =>
      issueLicence(tx, t.deps.secretKey, {
        type: 'Paid',
        edition: 'Pro',
        quantity: 6,
        email: 'buyer@example.com',
        productId: PRODUCT,
        expiresAt: null,
        customerId: 'cus_123',
        addressRule: 'any',
      }),
    );
    const res = await requestTrial(t, trial('buyer+trial@example.com'));
    expect(res.status).toBe(409);
    expect((await res.json()).Error).toBe('TrialLicenseAlreadyUsed');
  });

  it('accepts an enabled referral code in any case and records it', async () => {
    const res = await requestTrial(t, trial('ref@example.com', { referralCode: ' partner-2026 ' }));
    expect(res.status).toBe(204);
    const [licence] = await t.deps.database.db.select().from(licences);
    expect(licence?.referralCode).toBe('PARTNER-2026');
  });

  it.each([['NO-SUCH-CODE'], ['old-code']])(
    'refuses the referral code %s before writing anything',
    async (referralCode) => {
      const res = await requestTrial(t, trial('coded@example.com', { referralCode }));
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        Error: 'ReferralCodeInvalid',
        message: 'The referral code is not valid for this product.',
      });
      expect(await counts()).toEqual({ licences: 0, claims: 0, mails: 0 });
      expect((await requestTrial(t, trial('coded@example.com'))).status).toBe(204);
    },
  );

  it('treats an empty referral code as none', async () => {
    const res = await requestTrial(t, trial('empty@example.com', { referralCode: '' }));
    expect(res.status).toBe(204);
  });

  it('refuses another product id', async () => {
    const res = await requestTrial(t, { emailAddress: 'p@example.com', productId: 'other-tool' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ Error: 'ProductIdInvalid' });
    expect(await counts()).toEqual({ licences: 0, claims: 0, mails: 0 });
  });

  it.each([
    [
      'a missing e-mail address',
      { productId: PRODUCT },
      'emailAddress: You must enter an email address.',
    ],
    [
      'an invalid e-mail address',
      { emailAddress: 'no-at-sign', productId: PRODUCT },
      'This is not a valid email address.',
    ],
    [
      'a missing product id',
      { emailAddress: 'a@example.com' },
      'productId: The product id is required.',
    ],
    [
      'an unknown parameter',
      { emailAddress: 'a@example.com', productId: PRODUCT, plan: 'pro' },
      'Unknown query parameters: plan.',
    ],
  ])('answers %s with 400 InvalidRequest', async (_label, query, message) => {
    const res = await requestTrial(t, query);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.Error).toBe('InvalidRequest');
    expect(body.message).toContain(message);
    expect(await counts()).toEqual({ licences: 0, claims: 0, mails: 0 });
  });

  it('refuses a repeated parameter and a request body', async () => {
    const repeated = await t.app.request(
      `/account/v1/licenses/trial?emailAddress=a@example.com&emailAddress=b@example.com&productId=${PRODUCT}`,
      { method: 'POST', headers: csrfHeaders() },
    );
    expect(repeated.status).toBe(400);
    expect((await repeated.json()).message).toContain('more than once');
    const withBody = await t.app.request(
      `/account/v1/licenses/trial?emailAddress=a@example.com&productId=${PRODUCT}`,
      {
        method: 'POST',
        headers: { ...csrfHeaders(), 'Content-Type': 'application/json' },
        body: '{"x":1}',
      },
    );
    expect(withBody.status).toBe(400);
    expect((await withBody.json()).message).toContain('must have no body');
    expect(await counts()).toEqual({ licences: 0, claims: 0, mails: 0 });
  });

  it('requires the CSRF header', async () => {
    const res = await t.app.request(
      `/account/v1/licenses/trial?emailAddress=a@example.com&productId=${PRODUCT}`,
      {
        method: 'POST',
      },
    );
    expect(res.status).toBe(403);
    expect(await counts()).toEqual({ licences: 0, claims: 0, mails: 0 });
  });

  it('keeps issued licences apart by key', async () => {
    for (const n of [1, 2, 3])
      expect((await requestTrial(t, trial(`k${n}@example.com`))).status).toBe(204);
    const rows = await t.deps.database.db.select().from(licences);
    expect(new Set(rows.map((row) => row.keyHash)).size).toBe(3);
    const [mail] = await t.deps.database.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, 'k2@example.com'));
    expect(mail?.textBody).toMatch(/ORGS(-[0-9A-Z]{4}){7}/);
  });
});
