import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { handlePaymentEvent, syncDepsOf } from '#server/billing/subscriptions/sync-subscription.ts';
import { markLocalInvoicePaid } from '#server/billing/payments/local/local-invoices.ts';
import { siteConfig } from '#shared/site-config.ts';
import {
  createCheckout,
  issueTrial,
  licenceKeyPattern,
  mailsTo,
  payLocally,
  pro10YearlyEur,
} from '#tests/api/checkout-support.ts';
import { databaseTargets } from '#tests/support/databases.ts';
import { createLicence, orgId, postJson, updateLicence } from '#tests/support/licensing.ts';
import { createTestApp, type TestApp } from '#tests/support/test-app.ts';
import { enterpriseOrder, orderAndConfirm } from './support/invoice-orders.ts';

/**
 * Issue 38, invariants 1 (quota) and 9 (unpaid credit), decision 215: after any change that
 * shrinks a licence's org quota, at most the quota's number of orgs validate — the ones used most
 * recently; and a certificate of a licence whose invoice is unpaid never outlives its due date.
 */

const DAY = 86_400_000;
const answerSchema = z.object({
  valid: z.boolean(),
  code: z.string(),
  detail: z.string(),
  license: z
    .object({ orgs: z.union([z.number(), z.literal('unlimited')]), orgsInUse: z.number() })
    .nullable(),
  certificate: z.object({ payload: z.object({ validUntil: z.string() }) }).optional(),
});

async function validate(t: TestApp, key: string, org: string) {
  // A fresh client address per call: the point is the quota, not the validation rate limit.
  const response = await postJson(
    t,
    '/account/v1/licenses/validate',
    { licenseKey: key, productId: siteConfig.productId, orgId: org },
    {
      'X-Forwarded-For': `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`,
    },
  );
  expect(response.status).toBe(200);
  return answerSchema.parse(await response.json());
}

describe.each(databaseTargets)('the org quota after a shrink on $name', (target) => {
  let t: TestApp;
  const start = new Date('2026-01-15T10:00:00Z');
  beforeAll(async () => {
    // No validation cache: each answer reads the database as it is now.
    t = await createTestApp(target, { now: start, env: { LICENSE_VALIDATION_CACHE_SECONDS: '0' } });
  });
  afterAll(() => t.close());

  it('a trial that used 12 orgs and converts to free Starter keeps 3: the most recently used', async () => {
    t.setNow(start);
    const trial = await issueTrial(t, 'shrink@acme.test');
    for (let n = 1; n <= 12; n++) {
      t.setNow(new Date(start.getTime() + n * 3_600_000));
      expect((await validate(t, trial.key, orgId(n))).code).toBe('VALID');
    }
    t.setNow(new Date(start.getTime() + 13 * 3_600_000));
    const { sessionId } = await createCheckout(t, {
      ...pro10YearlyEur,
      edition: 'Starter',
      quantity: 3,
      billingPeriod: 'monthly',
      trialLicenseKeyToConvert: trial.key,
    });
    expect((await payLocally(t, sessionId, { email: 'shrink@acme.test' })).status).toBe(303);

    const answers = [];
    for (let n = 1; n <= 12; n++) answers.push(await validate(t, trial.key, orgId(n)));
    expect(answers.filter((answer) => answer.valid)).toHaveLength(3);
    // Orgs 10, 11 and 12 validated last before the change: they keep their slots.
    expect(answers.map((answer) => answer.code)).toEqual([
      ...Array<string>(9).fill('TOO_MANY_ORGS'),
      'VALID',
      'VALID',
      'VALID',
    ]);
    expect(answers[0]?.certificate).toBeUndefined();
    expect(answers[0]?.detail).toBe(
      'This licence covers 3 Salesforce orgs and 3 others were used more recently. An org frees its slot 30 days after it last validated; to use org 00D5g0000000001EAA now, upgrade the licence.',
    );
    expect(answers[11]?.license).toMatchObject({ orgs: 3, orgsInUse: 3 });
    // A new org has no slot either.
    expect((await validate(t, trial.key, orgId(13))).code).toBe('TOO_MANY_ORGS');
  });

  it('a paid licence reduced from 10 orgs to 4 keeps the 4 used last; an unused org frees its slot after 30 days', async () => {
    t.setNow(start);
    const { licence, key } = await createLicence(t, { edition: 'Pro', quantity: 10 });
    for (let n = 1; n <= 10; n++) {
      t.setNow(new Date(start.getTime() + n * 3_600_000));
      expect((await validate(t, key, orgId(100 + n))).valid).toBe(true);
    }
    await updateLicence(t, licence.id, { quantity: 4 });
    const codes = [];
    for (let n = 1; n <= 10; n++) codes.push((await validate(t, key, orgId(100 + n))).code);
    expect(codes.filter((code) => code === 'VALID')).toHaveLength(4);
    expect(codes.slice(6)).toEqual(['VALID', 'VALID', 'VALID', 'VALID']);

    // Orgs 107 to 110 keep validating daily; org 101 stops for 31 days, the others stay refused.
    for (let day = 1; day <= 31; day++) {
      t.setNow(new Date(start.getTime() + day * DAY));
      for (const n of [7, 8, 9, 10])
        expect((await validate(t, key, orgId(100 + n))).valid).toBe(true);
    }
    // Six refused orgs aged out; the four in use still fill the quota, so a new one is refused.
    expect((await validate(t, key, orgId(201))).code).toBe('TOO_MANY_ORGS');
    await updateLicence(t, licence.id, { quantity: 5 });
    expect((await validate(t, key, orgId(201))).code).toBe('VALID');
    expect((await validate(t, key, orgId(202))).code).toBe('TOO_MANY_ORGS');
  });
});

describe.each(databaseTargets)(
  'certificates of a licence whose invoice is unpaid on $name',
  (target) => {
    let t: TestApp;
    const start = new Date('2026-03-01T10:00:00Z');
    beforeAll(async () => {
      t = await createTestApp(target, {
        now: start,
        env: { LICENSE_VALIDATION_CACHE_SECONDS: '0' },
      });
    });
    afterAll(() => t.close());

    it('end at the due date, none after it until the invoice is paid, then 30 days again', async () => {
      t.setNow(start);
      const placed = await orderAndConfirm(t, enterpriseOrder('ap@credit.test'));
      const mail = (await mailsTo(t, placed.licenceEmail)).find(
        (row) => row.kind === 'licence-key',
      );
      const key = licenceKeyPattern.exec(mail?.textBody ?? '')?.[0];
      if (!key) throw new Error('no licence key e-mailed');
      const dueAt = new Date(start.getTime() + 30 * DAY);

      const first = await validate(t, key, orgId(1));
      expect(first.valid).toBe(true);
      expect(first.certificate?.payload.validUntil).toBe(dueAt.toISOString());

      t.setNow(new Date(start.getTime() + 20 * DAY));
      expect((await validate(t, key, orgId(1))).certificate?.payload.validUntil).toBe(
        dueAt.toISOString(),
      );

      // Past due, not yet suspended: the licence answers online, but signs nothing for offline use.
      t.setNow(new Date(start.getTime() + 31 * DAY));
      const overdue = await validate(t, key, orgId(1));
      expect(overdue).toMatchObject({ valid: true, code: 'VALID' });
      expect(overdue.certificate).toBeUndefined();
      expect(overdue.detail).toMatch(/past due/);

      const paid = await markLocalInvoicePaid(
        { db: t.deps.database.db, clock: t.deps.clock },
        placed.invoiceNumber,
      );
      if (!paid.ok) throw new Error(paid.detail);
      for (const event of paid.events) await handlePaymentEvent(syncDepsOf(t.deps), event);
      const after = await validate(t, key, orgId(1));
      expect(after.certificate?.payload.validUntil).toBe(
        new Date(start.getTime() + 61 * DAY).toISOString(),
      );
    });
  },
);
