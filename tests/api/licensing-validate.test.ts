import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  licenceCertificateSchema,
  licenceKeySetSchema,
} from '#server/licensing/licence-certificates/licence-certificate-contract.ts';
import { verifyLicenceCertificate } from '#server/licensing/licence-certificates/verify-licence-certificate.ts';
import { normalizeSalesforceOrgId } from '#server/licensing/licence-validation/salesforce-org-id.ts';
import {
  ORG_ID_MESSAGE,
  orgIdChecksumMessage,
} from '#server/licensing/licence-validation/licence-validation-contract.ts';
import { generateLicenceKey } from '#server/licensing/licences/licence-key.ts';
import { siteConfig } from '#shared/site-config.ts';
import { databaseTargets } from '../support/databases.ts';
import { createLicence, orgId, postJson, updateLicence } from '../support/licensing.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const VALIDATE = '/account/v1/licenses/validate';
const productId = siteConfig.productId;
const HOUR = 3_600_000;
const DAY = 24 * 3600 * 1000;
/** These tests change licences behind the service's back, so they read every time. */
const noCache = { LICENSE_VALIDATION_CACHE_SECONDS: '0' };

const answerSchema = z.object({
  valid: z.boolean(),
  code: z.string(),
  detail: z.string(),
  license: z
    .object({
      id: z.string(),
      type: z.string(),
      edition: z.string(),
      quantity: z.number(),
      orgs: z.union([z.number(), z.literal('unlimited')]),
      orgsInUse: z.number(),
      stacks: z.union([z.number(), z.literal('unlimited')]),
      features: z.array(z.string()),
      expiresAt: z.string().nullable(),
    })
    .strict()
    .nullable(),
  certificate: z.unknown().optional(),
});

describe.each(databaseTargets)('licence validation on $name', (target) => {
  let t: TestApp;
  const start = new Date('2026-01-15T10:00:00Z');
  beforeAll(async () => {
    t = await createTestApp(target, { now: start, env: noCache });
  });
  afterAll(() => t.close());

  async function validate(body: Record<string, unknown>, headers: Record<string, string> = {}) {
    const res = await postJson(t, VALIDATE, body, headers);
    expect(res.status).toBe(200);
    return answerSchema.parse(await res.json());
  }

  it('walks every code in the stated order of precedence', async () => {
    t.setNow(start);
    const { licence, key } = await createLicence(t, { quantity: 4 });
    for (let n = 1; n <= 4; n++) {
      expect((await validate({ licenseKey: key, productId, orgId: orgId(n) })).code).toBe('VALID');
    }
    const unknownKey = await validate({ licenseKey: generateLicenceKey(), productId });
    expect(unknownKey).toMatchObject({ valid: false, code: 'NOT_FOUND', license: null });

    const past = new Date(start.getTime() - DAY);
    await updateLicence(t, licence.id, {
      productId: 'another-product',
      revokedAt: past,
      deletionScheduledAt: past,
      deactivatedAt: past,
      expiresAt: past,
    });
    const newOrg = { licenseKey: key, productId, orgId: orgId(5) };
    const steps: Array<[string, Parameters<typeof updateLicence>[2]]> = [
      ['PRODUCT_MISMATCH', { productId }],
      ['PENDING_DELETION', { deletionScheduledAt: null }],
      ['DEACTIVATED', { deactivatedAt: null }],
      // Revoked by an operator: still DEACTIVATED once the lapse is settled (decision 086).
      ['DEACTIVATED', { revokedAt: null }],
      ['EXPIRED', { expiresAt: new Date(start.getTime() + 30 * DAY) }],
      ['TOO_MANY_ORGS', {}],
    ];
    for (const [code, fix] of steps) {
      const answer = await validate(newOrg);
      expect(answer, code).toMatchObject({ valid: false, code });
      expect(answer.certificate).toBeUndefined();
      if (code === 'PRODUCT_MISMATCH') expect(answer.license).toBeNull();
      else expect(answer.license).toMatchObject({ id: licence.id, orgs: 4, orgsInUse: 4 });
      if (Object.keys(fix).length > 0) await updateLicence(t, licence.id, fix);
    }
    const knownOrg = await validate({ licenseKey: key, productId, orgId: orgId(1) });
    expect(knownOrg).toMatchObject({ valid: true, code: 'VALID' });
  });

  it('answers a valid licence with its summary and a certificate that verifies', async () => {
    t.setNow(start);
    const { licence, key } = await createLicence(t, { quantity: 6 });
    const answer = await validate({ licenseKey: key, productId, orgId: orgId(1) });
    expect(answer).toMatchObject({
      valid: true,
      code: 'VALID',
      license: {
        id: licence.id,
        type: 'Paid',
        edition: 'Pro',
        quantity: 6,
        orgs: 6,
        orgsInUse: 1,
        stacks: 2,
        features: ['rollback', 'support', 'testAutomation', 'utilityCommands'],
        expiresAt: licence.expiresAt?.toISOString(),
      },
    });
    const keysRes = await t.app.request('/account/v1/.well-known/jwks.json');
    expect(keysRes.status).toBe(200);
    expect(keysRes.headers.get('cache-control')).toContain('max-age');
    const keySet = licenceKeySetSchema.parse(await keysRes.json());
    const scope = { orgId: orgId(1), productId };
    const check = verifyLicenceCertificate(answer.certificate, keySet, scope, start);
    expect(check).toMatchObject({
      ok: true,
      payload: {
        licenceId: licence.id,
        edition: 'Pro',
        quantity: 6,
        orgs: 6,
        orgId: normalizeSalesforceOrgId(orgId(1)),
        productId,
        issuedAt: start.toISOString(),
        validUntil: new Date(start.getTime() + 30 * DAY).toISOString(),
      },
    });
    const tampered = licenceCertificateSchema.parse(answer.certificate);
    tampered.payload.edition = 'Enterprise';
    expect(verifyLicenceCertificate(tampered, keySet, scope, start)).toMatchObject({
      ok: false,
      code: 'BAD_SIGNATURE',
    });
  });

  it('counts an org sent as 15 and as 18 characters once', async () => {
    t.setNow(start);
    const { key } = await createLicence(t, { quantity: 4 });
    const short = orgId(7);
    const first = await validate({ licenseKey: key, productId, orgId: short });
    expect(first.license?.orgsInUse).toBe(1);
    const check = await validate({
      licenseKey: key,
      productId,
      orgId: normalizeSalesforceOrgId(short),
    });
    expect(check).toMatchObject({ code: 'VALID', license: { orgsInUse: 1 } });
  });

  it('keeps the orgs used most recently within a downgraded quota and frees idle orgs after 30 days', async () => {
    t.setNow(start);
    const { licence, key } = await createLicence(t, { quantity: 6 });
    for (let n = 1; n <= 6; n++) {
      t.setNow(new Date(start.getTime() + n * HOUR));
      await validate({ licenseKey: key, productId, orgId: orgId(n) });
    }
    await updateLicence(t, licence.id, { quantity: 4 });
    // Invariant 1 (decision 215): orgs 3 to 6 were used last and keep the four slots.
    const codes = [];
    for (let n = 1; n <= 6; n++) {
      codes.push((await validate({ licenseKey: key, productId, orgId: orgId(n) })).code);
    }
    expect(codes).toEqual(['TOO_MANY_ORGS', 'TOO_MANY_ORGS', 'VALID', 'VALID', 'VALID', 'VALID']);
    expect((await validate({ licenseKey: key, productId, orgId: orgId(7) })).code).toBe(
      'TOO_MANY_ORGS',
    );
    t.setNow(new Date(start.getTime() + 20 * DAY));
    for (const n of [3, 4, 5]) await validate({ licenseKey: key, productId, orgId: orgId(n) });
    t.setNow(new Date(start.getTime() + 31 * DAY));
    // Orgs 1, 2 and 6 have been idle for 31 days: three validated 11 days ago, one slot is free.
    expect((await validate({ licenseKey: key, productId, orgId: orgId(7) })).code).toBe('VALID');
    expect((await validate({ licenseKey: key, productId, orgId: orgId(1) })).code).toBe(
      'TOO_MANY_ORGS',
    );
  });

  it('admits exactly one of two new orgs racing for the last slot', async () => {
    t.setNow(start);
    const { key } = await createLicence(t, { quantity: 4 });
    for (let n = 1; n <= 3; n++) await validate({ licenseKey: key, productId, orgId: orgId(n) });
    const answers = await Promise.all(
      [10, 11, 12].map((n) => validate({ licenseKey: key, productId, orgId: orgId(n) })),
    );
    expect(answers.filter((a) => a.code === 'VALID')).toHaveLength(1);
    expect(answers.filter((a) => a.code === 'TOO_MANY_ORGS')).toHaveLength(2);
    const same = await createLicence(t, { quantity: 4 });
    for (let n = 1; n <= 3; n++) {
      await validate({ licenseKey: same.key, productId, orgId: orgId(n) });
    }
    const repeats = await Promise.all(
      [1, 2, 3].map(() => validate({ licenseKey: same.key, productId, orgId: orgId(20) })),
    );
    expect(repeats.map((a) => a.code)).toEqual(['VALID', 'VALID', 'VALID']);
    expect(repeats.map((a) => a.license?.orgsInUse)).toEqual([4, 4, 4]);
  });

  it('enforces 3 orgs for Starter and none for trials and Enterprise', async () => {
    t.setNow(start);
    const starter = await createLicence(t, {
      type: 'Free',
      edition: 'Starter',
      quantity: 3,
      expiresAt: null,
    });
    for (let n = 1; n <= 3; n++) {
      const answer = await validate({ licenseKey: starter.key, productId, orgId: orgId(n) });
      expect(answer).toMatchObject({ code: 'VALID', license: { orgs: 3, stacks: 1 } });
    }
    const fourth = await validate({ licenseKey: starter.key, productId, orgId: orgId(4) });
    expect(fourth.code).toBe('TOO_MANY_ORGS');
    expect(fourth.detail).toContain('3 Salesforce orgs');

    const trial = await createLicence(t, { type: 'Trial', edition: 'Enterprise', quantity: 1 });
    for (let n = 1; n <= 30; n++) {
      const answer = await validate({ licenseKey: trial.key, productId, orgId: orgId(n) });
      expect(answer.code).toBe('VALID');
    }
    const summary = await validate({ licenseKey: trial.key, productId });
    expect(summary.license).toMatchObject({
      orgs: 'unlimited',
      stacks: 'unlimited',
      orgsInUse: 30,
    });
  });

  it('accepts a key however the customer typed it, and says when it has a typo', async () => {
    t.setNow(start);
    const { key } = await createLicence(t);
    const sloppy = key.toLowerCase().replaceAll('-', ' ');
    expect((await validate({ licenseKey: sloppy, productId })).code).toBe('VALID');
    const last = key.at(-1) === '0' ? '1' : '0';
    const typo = await validate({ licenseKey: `${key.slice(0, -1)}${last}`, productId });
    expect(typo).toMatchObject({ code: 'NOT_FOUND', license: null });
    expect(typo.detail).toMatch(/typo/);
  });

  it('needs no CSRF token (the CLI has none)', async () => {
    const res = await postJson(t, VALIDATE, { licenseKey: generateLicenceKey(), productId });
    expect(res.status).toBe(200);
  });

  it.each([
    ['malformed JSON', '{"licenseKey":', {}, 400],
    ['a JSON array', '[]', {}, 400],
    ['an unknown field', { licenseKey: 'x', productId, extra: 1 }, {}, 400],
    ['a missing productId', { licenseKey: 'x' }, {}, 400],
    ['a number for productId', { licenseKey: 'x', productId: 5 }, {}, 400],
    ['a bad org id', { licenseKey: 'x', productId, orgId: '001000000000001' }, {}, 400],
    [
      'a wrong org id checksum',
      { licenseKey: 'x', productId, orgId: '00D5g000004XyZ1AAA' },
      {},
      400,
    ],
    ['no credential', { productId }, {}, 400],
    [
      'both credentials',
      { licenseKey: 'x', productId },
      { Authorization: 'Bearer orgsmith_at_x' },
      400,
    ],
    ['a non-bearer Authorization', { productId }, { Authorization: 'Basic abc' }, 400],
    ['another content type', 'licenseKey=x', { 'Content-Type': 'text/plain' }, 415],
    ['an oversize body', { licenseKey: 'x'.repeat(20_000), productId }, {}, 413],
  ])('refuses %s with a clear JSON error', async (_case, body, headers, status) => {
    const res = await postJson(t, VALIDATE, body, headers);
    expect(res.status).toBe(status);
    const error = z.object({ Error: z.string(), message: z.string() }).parse(await res.json());
    expect(error.message.length).toBeGreaterThan(10);
  });

  it('names the checksum when that is what is wrong with the org id', async () => {
    const wrongSuffix = await postJson(t, VALIDATE, {
      licenseKey: 'x',
      productId,
      orgId: '00D5g000004ABCDEAA',
    });
    expect(wrongSuffix.status).toBe(400);
    expect(await wrongSuffix.json()).toMatchObject({
      Error: 'InvalidRequest',
      message: expect.stringContaining(orgIdChecksumMessage('00D5g000004ABCDEA4')),
    });
    const wrongShape = await postJson(t, VALIDATE, {
      licenseKey: 'x',
      productId,
      orgId: '0015g000004ABCDEA4',
    });
    expect(wrongShape.status).toBe(400);
    const { message } = z.object({ message: z.string() }).parse(await wrongShape.json());
    expect(message).toContain(ORG_ID_MESSAGE);
    expect(message).not.toContain('checksum');
  });

  it('refuses query parameters', async () => {
    const res = await postJson(t, `${VALIDATE}?licenseKey=x`, { licenseKey: 'x', productId });
    expect(res.status).toBe(400);
  });
});

describe.each(databaseTargets)('licence validation rate limits on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target, { env: { ...noCache, LICENSE_VALIDATION_RATE_LIMIT: '3' } });
  });
  afterAll(() => t.close());

  it('reports the remaining budget and answers 429 with Retry-After when it is spent', async () => {
    const { key } = await createLicence(t);
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await postJson(t, VALIDATE, { licenseKey: key, productId });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('3');
      expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
      remaining.push(res.headers.get('x-ratelimit-remaining') ?? '');
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const limited = await postJson(t, VALIDATE, { licenseKey: key, productId });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(await limited.json()).toMatchObject({ Error: 'TooManyRequests' });
    // Another licence from the same address still has its own budget.
    const other = await createLicence(t);
    const res = await postJson(t, VALIDATE, { licenseKey: other.key, productId });
    expect(res.status).toBe(200);
  });
});

describe.each(databaseTargets)('licence validation cache on $name', (target) => {
  let t: TestApp;
  const start = new Date('2026-01-15T10:00:00Z');
  beforeAll(async () => {
    t = await createTestApp(target, { now: start, env: { LICENSE_VALIDATION_CACHE_SECONDS: '5' } });
  });
  afterAll(() => t.close());

  async function code(body: Record<string, unknown>) {
    const res = await postJson(t, VALIDATE, body);
    return answerSchema.parse(await res.json()).code;
  }

  it('shows a change to the licence within the cache time, and still counts new orgs', async () => {
    t.setNow(start);
    const { licence, key } = await createLicence(t, { quantity: 4 });
    expect(await code({ licenseKey: key, productId })).toBe('VALID');
    await updateLicence(t, licence.id, { deactivatedAt: new Date(start.getTime() - DAY) });
    // Read within the last 5 seconds: the cached licence still answers.
    expect(await code({ licenseKey: key, productId })).toBe('VALID');
    t.setNow(new Date(start.getTime() + 5000));
    expect(await code({ licenseKey: key, productId })).toBe('DEACTIVATED');

    const other = await createLicence(t, { quantity: 4 });
    for (let n = 1; n <= 4; n++) {
      expect(await code({ licenseKey: other.key, productId, orgId: orgId(n) })).toBe('VALID');
      expect(await code({ licenseKey: other.key, productId, orgId: orgId(n) })).toBe('VALID');
    }
    expect(await code({ licenseKey: other.key, productId, orgId: orgId(5) })).toBe('TOO_MANY_ORGS');
  });
});
