import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { hashAccessToken } from '#server/licensing/access-tokens/access-token.ts';
import { accessTokens, emailOutbox } from '#server/platform/db/schema.ts';
import { siteConfig } from '#shared/site-config.ts';
import { databaseTargets } from '../support/databases.ts';
import { createLicence, orgId, postJson, updateLicence } from '../support/licensing.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const productId = siteConfig.productId;
const TOKENS = '/account/v1/access-tokens';
const VALIDATE = '/account/v1/licenses/validate';

const createdSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  hint: z.string(),
  createdVia: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  token: z.string(),
});

describe.each(databaseTargets)('access tokens on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target, { env: { LICENSE_VALIDATION_CACHE_SECONDS: '0' } });
  });
  afterAll(() => t.close());

  async function validateWithToken(token: string, extra: Record<string, unknown> = {}) {
    const res = await postJson(
      t,
      VALIDATE,
      { productId, ...extra },
      { Authorization: `Bearer ${token}` },
    );
    expect(res.status).toBe(200);
    return z
      .object({ valid: z.boolean(), code: z.string() })
      .loose()
      .parse(await res.json());
  }

  it('creates a token once, stores only its hash, and validates with it', async () => {
    const { licence, key } = await createLicence(t);
    const res = await postJson(t, TOKENS, { licenseKey: key, name: 'GitHub Actions' });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const created = createdSchema.parse(await res.json());
    expect(created).toMatchObject({
      name: 'GitHub Actions',
      createdVia: 'self-service',
      revokedAt: null,
    });
    expect(created.token).toMatch(/^orgsmith_at_[A-Za-z0-9_-]{43}$/);
    expect(created.hint).toBe(created.token.slice(-4));

    const [row] = await t.deps.database.db
      .select()
      .from(accessTokens)
      .where(eq(accessTokens.id, created.id));
    expect(row?.licenceId).toBe(licence.id);
    expect(row?.tokenHash).toBe(hashAccessToken(t.deps.secretKey, created.token));
    expect(JSON.stringify(row)).not.toContain(created.token.slice(12));

    const answer = await validateWithToken(created.token, { orgId: orgId(1) });
    expect(answer).toMatchObject({ valid: true, code: 'VALID', license: { id: licence.id } });

    const list = await postJson(t, `${TOKENS}/list`, { licenseKey: key });
    expect(list.status).toBe(200);
    const listed = z
      .object({
        tokens: z.array(z.object({ id: z.string(), lastUsedAt: z.string().nullable() }).loose()),
      })
      .parse(await list.json());
    expect(listed.tokens).toHaveLength(1);
    expect(listed.tokens[0]?.lastUsedAt).not.toBeNull();
    expect(JSON.stringify(listed)).not.toContain(created.token);
  });

  it('e-mails the licence address the name, time and client of every token made', async () => {
    const { licence, key } = await createLicence(t);
    const res = await postJson(
      t,
      TOKENS,
      { licenseKey: key, name: 'Nightly deploy' },
      { 'X-Forwarded-For': '203.0.113.20', 'User-Agent': 'python-requests/2.32' },
    );
    expect(res.status).toBe(201);
    const created = createdSchema.parse(await res.json());
    const mails = await t.deps.database.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, licence.email));
    const mail = mails.find((m) => m.kind === 'access-token-created');
    expect(mail?.textBody).toContain('Token name: "Nightly deploy"');
    expect(mail?.textBody).toContain(
      'Created from: IP address 203.0.113.20, program "python-requests"',
    );
    expect(mail?.textBody).toContain(`Licence key: ends in ${licence.keyHint}`);
    expect(mail?.textBody).toMatch(/\/replace-licence-key\?token=/);
    expect(mail?.textBody).not.toContain(created.token);
  });

  it('revokes by the token itself or by licence key and id; revoked tokens are NOT_FOUND', async () => {
    const { key } = await createLicence(t);
    const first = createdSchema.parse(
      await (await postJson(t, TOKENS, { licenseKey: key, name: 'one' })).json(),
    );
    const second = createdSchema.parse(
      await (await postJson(t, TOKENS, { licenseKey: key, name: 'two' })).json(),
    );

    const byToken = await postJson(t, `${TOKENS}/revoke`, { token: first.token });
    expect(byToken.status).toBe(200);
    expect(await byToken.json()).toMatchObject({ id: first.id, revokedAt: expect.any(String) });
    expect(await validateWithToken(first.token)).toMatchObject({
      valid: false,
      code: 'NOT_FOUND',
      license: null,
    });

    const byId = await postJson(t, `${TOKENS}/revoke`, { licenseKey: key, id: second.id });
    expect(byId.status).toBe(200);
    expect((await validateWithToken(second.token)).code).toBe('NOT_FOUND');
    const again = await postJson(t, `${TOKENS}/revoke`, { licenseKey: key, id: second.id });
    expect(again.status).toBe(200);

    const other = await createLicence(t);
    const foreign = await postJson(t, `${TOKENS}/revoke`, { licenseKey: other.key, id: first.id });
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toMatchObject({ Error: 'AccessTokenUnknown' });
  });

  it('follows the licence: a deactivated licence answers DEACTIVATED through its tokens', async () => {
    const { licence, key } = await createLicence(t);
    const created = createdSchema.parse(
      await (await postJson(t, TOKENS, { licenseKey: key, name: 'CI' })).json(),
    );
    await updateLicence(t, licence.id, { deactivatedAt: new Date('2026-01-01T00:00:00Z') });
    expect((await validateWithToken(created.token)).code).toBe('DEACTIVATED');
    const refused = await postJson(t, TOKENS, { licenseKey: key, name: 'another' });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ Error: 'LicenseInactive' });
  });

  it('refuses unknown keys, bad input and more than 20 active tokens', async () => {
    const unknown = await postJson(t, TOKENS, { licenseKey: 'ORGS-0000', name: 'x' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ Error: 'LicenseKeyUnknown' });
    const { key } = await createLicence(t);
    for (const body of [
      { licenseKey: key },
      { licenseKey: key, name: '' },
      { licenseKey: key, name: 'a\nb' },
      { licenseKey: key, name: 'x', extra: true },
    ]) {
      const res = await postJson(t, TOKENS, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(
      (await postJson(t, `${TOKENS}/revoke`, { id: 'not-a-uuid', licenseKey: key })).status,
    ).toBe(400);
    for (let i = 0; i < 20; i++) {
      expect((await postJson(t, TOKENS, { licenseKey: key, name: `CI ${i}` })).status).toBe(201);
    }
    const over = await postJson(t, TOKENS, { licenseKey: key, name: 'one too many' });
    expect(over.status).toBe(409);
    expect(await over.json()).toMatchObject({ Error: 'AccessTokenLimitReached' });
  });

  it('is called by machines without a CSRF token', async () => {
    const res = await postJson(t, `${TOKENS}/list`, { licenseKey: 'ORGS-0000' });
    expect(res.status).toBe(404);
  });
});
