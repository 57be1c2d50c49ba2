import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { siteConfig } from '#shared/site-config.ts';
import { mailsTo } from '../api/checkout-support.ts';
import { databaseTargets } from '../support/databases.ts';
import { createLicence, orgId, postJson, runAdminOn } from '../support/licensing.ts';
import { createTestApp, csrfHeaders, type TestApp } from '../support/test-app.ts';

/**
 * Issue 38, credentials: an access token made with a leaked key outlived the key — the owner
 * replaced the key, the old key stopped, the attacker's token kept validating and got certificates
 * for new orgs, and the owner was never told a token had been made. Now a token's creation is
 * e-mailed to the licence address, replacing the key ends every token not kept by name, and
 * revoking the licence ends them for good (decision 212).
 */

const start = new Date('2026-01-15T10:00:00Z');
const TOKENS = '/account/v1/access-tokens';
const REPLACE = '/account/v1/licenses/replace-key';
const REPLACE_TOKENS = '/account/v1/licenses/replace-key/tokens';
const attacker = { 'X-Forwarded-For': '198.51.100.66', 'User-Agent': 'curl/8.5.0' };

const createdSchema = z.object({ id: z.uuid(), token: z.string() }).loose();
const answerSchema = z
  .object({ valid: z.boolean(), code: z.string(), certificate: z.unknown().optional() })
  .loose();

describe.each(databaseTargets)('credentials end with the key on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    // The validation cache as deployed: a revoked token may answer from it for these seconds.
    t = await createTestApp(target, { now: start, env: { LICENSE_VALIDATION_CACHE_SECONDS: '5' } });
  });
  afterAll(() => t.close());

  /** Past the validation cache window, as every instance's cached answers expire. */
  function afterCacheWindow() {
    t.setNow(new Date(t.deps.clock().getTime() + 6_000));
  }

  async function makeToken(key: string, name: string, headers: Record<string, string> = {}) {
    const res = await postJson(t, TOKENS, { licenseKey: key, name }, headers);
    expect(res.status).toBe(201);
    return createdSchema.parse(await res.json());
  }

  async function validateWithToken(token: string, org: number) {
    const res = await postJson(
      t,
      '/account/v1/licenses/validate',
      { productId: siteConfig.productId, orgId: orgId(org) },
      { Authorization: `Bearer ${token}` },
    );
    expect(res.status).toBe(200);
    return answerSchema.parse(await res.json());
  }

  async function validateWithKey(licenseKey: string, org: number) {
    const res = await postJson(t, '/account/v1/licenses/validate', {
      licenseKey,
      productId: siteConfig.productId,
      orgId: orgId(org),
    });
    return answerSchema.parse(await res.json());
  }

  async function tokenMail(address: string) {
    const mails = (await mailsTo(t, address)).filter((m) => m.kind === 'access-token-created');
    return mails.at(-1);
  }

  const linkIn = (text: string | null | undefined) =>
    /replace-licence-key\?token=([^\s"<]+)/.exec(text ?? '')?.[1] ?? '';

  /** The owner's "Lost your licence key?" request, and the link it e-mails. */
  async function lostKeyLink(address: string) {
    const res = await postJson(
      t,
      '/account/v1/licenses/resend',
      { emailAddress: address },
      {
        ...csrfHeaders(),
        'X-Forwarded-For': '203.0.113.9',
      },
    );
    expect(res.status).toBe(202);
    const mail = (await mailsTo(t, address)).filter((m) => m.kind === 'lost-licence-key').at(-1);
    return linkIn(mail?.textBody);
  }

  it('stops a token made with a leaked key once the owner replaces the key, new orgs included', async () => {
    t.setNow(start);
    const { licence, key } = await createLicence(t);
    const stolen = await makeToken(key, 'backup job', attacker);
    expect((await validateWithToken(stolen.token, 1)).code).toBe('VALID');

    const link = await lostKeyLink(licence.email);
    expect(link).not.toBe('');
    const replaced = await postJson(t, REPLACE, { token: link }, csrfHeaders());
    expect(replaced.status).toBe(200);

    // The old key and the stolen token stop, for known orgs and new ones: no certificate.
    afterCacheWindow();
    expect((await validateWithKey(key, 2)).code).toBe('NOT_FOUND');
    const known = await validateWithToken(stolen.token, 1);
    expect(known).toMatchObject({ valid: false, code: 'NOT_FOUND' });
    const newOrg = await validateWithToken(stolen.token, 3);
    expect(newOrg).toMatchObject({ valid: false, code: 'NOT_FOUND' });
    expect(newOrg.certificate).toBeUndefined();
    expect(await replaced.json()).toMatchObject({ endedTokens: 1, keptTokens: 0 });
  });

  it('e-mails the owner of every token made, with its name and a link that ends it', async () => {
    t.setNow(start);
    const { licence, key } = await createLicence(t);
    const stolen = await makeToken(key, 'backup job', attacker);

    // The owner hears of it: the token's name, when, from where, and a link to replace the key.
    const mail = await tokenMail(licence.email);
    expect(mail?.subject).toBe('A new access token for your Orgsmith licence');
    expect(mail?.textBody).toContain('Token name: "backup job"');
    expect(mail?.textBody).toContain(`Token ends in: ${stolen.token.slice(-4)}`);
    expect(mail?.textBody).toContain('Created: 15 January 2026, 10:00 UTC');
    expect(mail?.textBody).toContain('Created from: IP address 198.51.100.66, program "curl"');
    expect(mail?.textBody).not.toContain(stolen.token);
    const link = linkIn(mail?.textBody);
    expect(link).not.toBe('');

    // The owner follows it; the page lists the token by name and keeps nothing unless ticked.
    const listed = await postJson(t, REPLACE_TOKENS, { token: link }, csrfHeaders());
    expect(listed.status).toBe(200);
    expect(await listed.json()).toMatchObject({
      tokens: [{ id: stolen.id, name: 'backup job', lastUsedAt: null }],
    });
    expect((await postJson(t, REPLACE, { token: link }, csrfHeaders())).status).toBe(200);
    afterCacheWindow();
    expect((await validateWithToken(stolen.token, 1)).code).toBe('NOT_FOUND');
  });

  it('keeps the tokens the owner names, and only those', async () => {
    t.setNow(start);
    const { licence, key } = await createLicence(t);
    const own = await makeToken(key, 'GitHub Actions');
    const stolen = await makeToken(key, 'backup job', attacker);
    const other = await createLicence(t);
    const foreign = await makeToken(other.key, 'someone else');
    const link = await lostKeyLink(licence.email);

    const refused = await postJson(
      t,
      REPLACE,
      { token: link, keepTokenIds: ['not-a-uuid'] },
      csrfHeaders(),
    );
    expect(refused.status).toBe(400);
    expect((await validateWithKey(key, 1)).code).toBe('VALID');

    const replaced = await postJson(
      t,
      REPLACE,
      { token: link, keepTokenIds: [own.id, foreign.id] },
      csrfHeaders(),
    );
    expect(replaced.status).toBe(200);
    expect(await replaced.json()).toMatchObject({ endedTokens: 1, keptTokens: 1 });

    afterCacheWindow();
    const kept = await validateWithToken(own.token, 4);
    expect(kept).toMatchObject({ valid: true, code: 'VALID' });
    expect(kept.certificate).toBeDefined();
    expect(await validateWithToken(stolen.token, 5)).toMatchObject({ code: 'NOT_FOUND' });
    // Another licence's token named in the list is neither kept nor ended by it.
    expect((await validateWithToken(foreign.token, 6)).code).toBe('VALID');
    const [newKeyMail] = (await mailsTo(t, licence.email))
      .filter((m) => m.kind === 'replacement-licence-key')
      .slice(-1);
    expect(newKeyMail?.textBody).toContain(
      '1 access token made for this licence ended with the old key. 1 access token you chose to keep still works.',
    );
  });

  it('ends every token when an operator replaces the key or revokes the licence', async () => {
    t.setNow(start);
    const replacedByOperator = await createLicence(t);
    const stolen = await makeToken(replacedByOperator.key, 'backup job', attacker);
    const resent = await runAdminOn(
      t,
      'licences',
      'resend',
      replacedByOperator.licence.id,
      '--new-key',
    );
    expect(resent.code).toBe(0);
    afterCacheWindow();
    expect((await validateWithToken(stolen.token, 7)).code).toBe('NOT_FOUND');
    expect(resent.out).toContain('Revoked 1 access token with the old key; 0 access tokens kept.');

    const { licence, key } = await createLicence(t);
    const token = await makeToken(key, 'CI');
    const revoked = await runAdminOn(t, 'licences', 'revoke', licence.id, '--reason', 'leaked');
    expect(revoked.code).toBe(0);
    afterCacheWindow();
    expect((await validateWithToken(token.token, 8)).code).toBe('NOT_FOUND');
    // Reinstating the licence brings its key back, never its tokens.
    expect((await runAdminOn(t, 'licences', 'reinstate', licence.id)).code).toBe(0);
    afterCacheWindow();
    expect((await validateWithKey(key, 9)).code).toBe('VALID');
    expect((await validateWithToken(token.token, 9)).code).toBe('NOT_FOUND');
  });

  it('does not relay a web address through the token name', async () => {
    t.setNow(start);
    const { licence, key } = await createLicence(t);
    await makeToken(key, 'renew at evil.example now', attacker);
    const mail = await tokenMail(licence.email);
    expect(mail?.textBody).toContain('Token name: "renew at now"');
    expect(mail?.textBody).not.toContain('evil.example');
    expect(mail?.htmlBody).not.toContain('evil.example');
  });
});
