import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox } from '#server/platform/db/schema.ts';
import { siteConfig } from '#shared/site-config.ts';
import { databaseTargets } from '../support/databases.ts';
import { createLicence, postJson, updateLicence } from '../support/licensing.ts';
import { createTestApp, csrfHeaders, type TestApp } from '../support/test-app.ts';

const RESEND = '/account/v1/licenses/resend';
const REPLACE = '/account/v1/licenses/replace-key';
const productId = siteConfig.productId;

describe.each(databaseTargets)('lost licence key on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target, { env: { LICENSE_VALIDATION_CACHE_SECONDS: '0' } });
  });
  afterAll(() => t.close());

  async function mailsTo(address: string) {
    return t.deps.database.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, address))
      .orderBy(desc(emailOutbox.id));
  }

  async function validate(licenseKey: string) {
    const res = await postJson(t, '/account/v1/licenses/validate', { licenseKey, productId });
    const body: unknown = await res.json();
    return body;
  }

  function resend(emailAddress: string, ip = '203.0.113.7') {
    return postJson(t, RESEND, { emailAddress }, { ...csrfHeaders(), 'X-Forwarded-For': ip });
  }

  it('answers known and unknown addresses alike, and e-mails links only for known ones', async () => {
    const { licence } = await createLicence(t, { email: 'Known.Person@Example.com' });
    const known = performance.now();
    const knownRes = await resend('known.person@example.com', '203.0.113.10');
    const knownMs = performance.now() - known;
    const unknown = performance.now();
    const unknownRes = await resend('nobody@example.com', '203.0.113.10');
    const unknownMs = performance.now() - unknown;

    expect(knownRes.status).toBe(202);
    expect(unknownRes.status).toBe(knownRes.status);
    expect(await unknownRes.text()).toBe(await knownRes.text());
    const headerNames = (res: Response) =>
      [...res.headers.keys()].filter((h) => h !== 'set-cookie').sort();
    expect(headerNames(unknownRes)).toEqual(headerNames(knownRes));
    expect(knownMs).toBeGreaterThanOrEqual(390);
    expect(unknownMs).toBeGreaterThanOrEqual(390);

    expect(await mailsTo('nobody@example.com')).toHaveLength(0);
    const [mail] = await mailsTo(licence.email);
    expect(mail?.kind).toBe('lost-licence-key');
    expect(mail?.textBody).toContain(`key ending in ${licence.keyHint}`);
    expect(mail?.textBody).toMatch(/\/replace-licence-key\?token=/);
  });

  it('replaces the key with the link once; the old key stops working, the new one is e-mailed', async () => {
    const { licence, key: oldKey } = await createLicence(t);
    expect((await resend(licence.email, '203.0.113.11')).status).toBe(202);
    const [mail] = await mailsTo(licence.email);
    const token = /replace-licence-key\?token=([^\s"<]+)/.exec(mail?.textBody ?? '')?.[1] ?? '';
    expect(token).not.toBe('');

    const replaced = await postJson(t, REPLACE, { token }, csrfHeaders());
    expect(replaced.status).toBe(200);
    expect(await replaced.json()).toEqual({
      sentTo: `${licence.email.charAt(0)}•••@example.com`,
      endedTokens: 0,
      keptTokens: 0,
    });

    const [newKeyMail] = await mailsTo(licence.email);
    expect(newKeyMail?.kind).toBe('replacement-licence-key');
    const newKey = /ORGS(?:-[0-9A-Z]{4}){7}/.exec(newKeyMail?.textBody ?? '')?.[0] ?? '';
    expect(newKey).not.toBe('');
    expect(newKey).not.toBe(oldKey);
    expect(newKeyMail?.textBody).toContain('/account/v1/access-tokens');
    expect(await validate(newKey)).toMatchObject({ valid: true, license: { id: licence.id } });
    expect(await validate(oldKey)).toMatchObject({ valid: false, code: 'NOT_FOUND' });

    const again = await postJson(t, REPLACE, { token }, csrfHeaders());
    expect(again.status).toBe(410);
    expect(await again.json()).toMatchObject({ Error: 'KeyReplacementLinkInvalid' });
  });

  it('lists the tokens a replacement would end, by name, only to the link', async () => {
    const { licence, key } = await createLicence(t);
    const made = await postJson(t, '/account/v1/access-tokens', { licenseKey: key, name: 'CI' });
    expect(made.status).toBe(201);
    await resend(licence.email, '203.0.113.14');
    const mail = (await mailsTo(licence.email)).find((m) => m.kind === 'lost-licence-key');
    expect(mail?.textBody).toContain('together with the access tokens made for the licence');
    const token = /replace-licence-key\?token=([^\s"<]+)/.exec(mail?.textBody ?? '')?.[1] ?? '';
    const listed = await postJson(t, `${REPLACE}/tokens`, { token }, csrfHeaders());
    expect(listed.status).toBe(200);
    expect(listed.headers.get('cache-control')).toBe('no-store');
    const body: unknown = await listed.json();
    expect(body).toMatchObject({ tokens: [{ name: 'CI', lastUsedAt: null }] });
    expect(JSON.stringify(body)).not.toContain('orgsmith_at_');
    const forged = token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect((await postJson(t, `${REPLACE}/tokens`, { token: forged }, csrfHeaders())).status).toBe(
      410,
    );
    expect((await postJson(t, `${REPLACE}/tokens`, {}, csrfHeaders())).status).toBe(400);
    expect((await postJson(t, `${REPLACE}/tokens`, { token })).status).toBe(403);
  });

  it('refuses expired and forged links', async () => {
    const { licence } = await createLicence(t);
    await resend(licence.email, '203.0.113.12');
    const [mail] = await mailsTo(licence.email);
    const token = /replace-licence-key\?token=([^\s"<]+)/.exec(mail?.textBody ?? '')?.[1] ?? '';
    const forged = token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect((await postJson(t, REPLACE, { token: forged }, csrfHeaders())).status).toBe(410);
    expect((await postJson(t, REPLACE, { token: 'nonsense' }, csrfHeaders())).status).toBe(410);
    t.setNow(new Date(t.deps.clock().getTime() + 25 * 3600 * 1000));
    expect((await postJson(t, REPLACE, { token }, csrfHeaders())).status).toBe(410);
    t.setNow(new Date('2026-01-15T10:00:00Z'));
  });

  it('leaves out licences pending deletion', async () => {
    const { licence } = await createLicence(t);
    await updateLicence(t, licence.id, { deletionScheduledAt: new Date('2026-01-01T00:00:00Z') });
    await resend(licence.email, '203.0.113.13');
    expect(await mailsTo(licence.email)).toHaveLength(0);
  });

  it('limits requests per address the same way for known and unknown addresses', async () => {
    const { licence } = await createLicence(t);
    for (const address of [licence.email, 'stranger@example.com']) {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await resend(address, `198.51.100.${i}`)).status);
      expect(statuses, address).toEqual([202, 202, 202, 429]);
    }
  });

  it('needs the CSRF token and refuses bad input', async () => {
    expect((await postJson(t, RESEND, { emailAddress: 'a@example.com' })).status).toBe(403);
    const bad = await postJson(t, RESEND, { emailAddress: 'not an address' }, csrfHeaders());
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      Error: 'InvalidRequest',
      message: expect.stringContaining('This is not a valid email address.'),
    });
    expect((await postJson(t, RESEND, '{', csrfHeaders())).status).toBe(400);
    expect(
      (await postJson(t, RESEND, { emailAddress: 'a@example.com', x: 1 }, csrfHeaders())).status,
    ).toBe(400);
    expect((await postJson(t, REPLACE, {}, csrfHeaders())).status).toBe(400);
  });
});
