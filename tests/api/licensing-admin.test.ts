import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactMessages, emailOutbox, licences } from '#server/platform/db/schema.ts';
import { createOutboxRepository } from '#server/platform/email/outbox-repository.ts';
import { siteConfig } from '#shared/site-config.ts';
import { databaseTargets } from '../support/databases.ts';
import { createLicence, postJson, runAdminOn } from '../support/licensing.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

interface Captured {
  code: number;
  out: string;
  err: string;
}

const productId = siteConfig.productId;

describe.each(databaseTargets)('licensing operator commands on $name', (target) => {
  let t: TestApp;
  const now = new Date('2026-01-15T10:00:00Z');

  beforeAll(async () => {
    t = await createTestApp(target, { now, env: { LICENSE_VALIDATION_CACHE_SECONDS: '0' } });
  });
  afterAll(() => t.close());

  /** Runs a command against the test app's database, with the app's secret and clock. */
  const admin = (...argv: string[]): Promise<Captured> => runAdminOn(t, ...argv);

  async function validate(licenseKey: string, headers: Record<string, string> = {}) {
    const body = licenseKey ? { licenseKey, productId } : { productId };
    const res = await postJson(t, '/account/v1/licenses/validate', body, headers);
    const answer: unknown = await res.json();
    return answer;
  }

  it('lists the licensing commands in the help', async () => {
    const help = await admin('--help');
    expect(help.code).toBe(0);
    for (const name of [
      'licences find',
      'licences revoke',
      'licences reinstate',
      'licences extend-trial',
      'licences resend',
      'referral-codes create',
      'referral-codes list',
      'referral-codes disable',
      'contact-messages list',
      'outbox show',
      'outbox retry',
      'access-tokens create',
      'access-tokens list',
      'access-tokens revoke',
    ]) {
      expect(help.out).toContain(name);
    }
    const one = await admin('licences', 'resend', '--help');
    expect(one.out).toContain('--new-key');
  });

  it('finds licences by e-mail, key and id, never printing the key', async () => {
    const { licence, key } = await createLicence(t, { email: 'Finder@Example.com' });
    for (const reference of ['finder@example.com', key.toLowerCase(), licence.id]) {
      const found = await admin('licences', 'find', reference);
      expect(found.code, reference).toBe(0);
      expect(found.out).toContain(licence.id);
      expect(found.out).toContain('Pro');
      expect(found.out).not.toContain(key);
    }
    const json = await admin('licences', 'find', licence.id, '--json');
    expect(JSON.parse(json.out)).toMatchObject([{ id: licence.id, email: 'Finder@Example.com' }]);
    expect(json.out).not.toContain(licence.keyHash);

    const missing = await admin('licences', 'find', 'nobody@example.com');
    expect(missing).toMatchObject({ code: 1, err: 'No licence matches "nobody@example.com".' });
    const typo = await admin(
      'licences',
      'find',
      `${key.slice(0, -1)}${key.at(-1) === '0' ? '1' : '0'}`,
    );
    expect(typo.code).toBe(2);
    expect(typo.err).toContain('typo');
    const nonsense = await admin('licences', 'find', 'hello');
    expect(nonsense.code).toBe(2);
  });

  it('revokes a licence: validations then answer DEACTIVATED until it is reinstated', async () => {
    const { licence, key } = await createLicence(t);
    const revoked = await admin('licences', 'revoke', licence.id);
    expect(revoked.code).toBe(0);
    expect(revoked.out).toContain(`Revoked licence ${licence.id}`);
    expect(revoked.out).toContain('Revoked its 0 access tokens with it');
    expect(await validate(key)).toMatchObject({
      valid: false,
      code: 'DEACTIVATED',
      detail: expect.stringContaining('revoked'),
    });
    const again = await admin('licences', 'revoke', licence.id);
    expect(again.code).toBe(0);
    expect(again.out).toContain('revoked already');
    expect((await admin('licences', 'reinstate', licence.id)).code).toBe(0);
    expect(await validate(key)).toMatchObject({ valid: true, code: 'VALID' });
  });

  it('extends trials only', async () => {
    const trial = await createLicence(t, {
      type: 'Trial',
      edition: 'Enterprise',
      expiresAt: new Date('2026-01-20T00:00:00Z'),
    });
    const extended = await admin('licences', 'extend-trial', trial.licence.id, '--days', '14');
    expect(extended.code).toBe(0);
    const [row] = await t.deps.database.db
      .select()
      .from(licences)
      .where(eq(licences.id, trial.licence.id));
    expect(row?.expiresAt?.toISOString()).toBe('2026-02-03T00:00:00.000Z');

    const paid = await createLicence(t);
    const refused = await admin('licences', 'extend-trial', paid.licence.id, '--days', '14');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('not a trial');
    expect((await admin('licences', 'extend-trial', trial.licence.id)).code).toBe(2);
    expect((await admin('licences', 'extend-trial', trial.licence.id, '--days', '-3')).code).toBe(
      2,
    );
    expect((await admin('licences', 'extend-trial', trial.licence.id, '--days', 'x')).code).toBe(2);
  });

  it('resends the licence e-mail as a link, or replaces the key with --new-key', async () => {
    const { licence, key } = await createLicence(t);
    const link = await admin('licences', 'resend', licence.id);
    expect(link.code).toBe(0);
    const mails = () =>
      t.deps.database.db
        .select()
        .from(emailOutbox)
        .where(eq(emailOutbox.toAddress, licence.email))
        .orderBy(desc(emailOutbox.id));
    expect((await mails())[0]?.kind).toBe('lost-licence-key');
    expect(await validate(key)).toMatchObject({ valid: true });

    const replaced = await admin('licences', 'resend', licence.id, '--new-key');
    expect(replaced.code).toBe(0);
    const [mail] = await mails();
    expect(mail?.kind).toBe('replacement-licence-key');
    const newKey = /ORGS(?:-[0-9A-Z]{4}){7}/.exec(mail?.textBody ?? '')?.[0] ?? '';
    expect(await validate(newKey)).toMatchObject({ valid: true });
    expect(await validate(key)).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('ends the access tokens with a replaced key, except those named with --keep-tokens', async () => {
    const { licence } = await createLicence(t);
    const tokens: Array<{ id: string; token: string }> = [];
    for (const name of ['Jenkins', 'unknown']) {
      const created = await admin('access-tokens', 'create', licence.id, '--name', name);
      expect(created.code).toBe(0);
      expect(created.out).toContain(`${licence.email} is told of it by e-mail.`);
      tokens.push({
        id: /access token ([0-9a-f-]{36})/.exec(created.out)?.[1] ?? '',
        token: /orgsmith_at_[A-Za-z0-9_-]{43}/.exec(created.out)?.[0] ?? '',
      });
    }
    const [jenkins, unknown] = tokens;
    if (!jenkins || !unknown) throw new Error('no tokens');
    const [mail] = await t.deps.database.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, licence.email))
      .orderBy(desc(emailOutbox.id));
    expect(mail?.kind).toBe('access-token-created');
    expect(mail?.textBody).toContain('Created from: Orgsmith support (an operator command)');

    const usage = [
      ['--new-key', '--keep-tokens', 'nope'],
      ['--keep-tokens', jenkins.id],
      ['--new-key', '--keep-tokens', ','],
    ];
    for (const extra of usage) {
      expect((await admin('licences', 'resend', licence.id, ...extra)).code, extra.join(' ')).toBe(
        2,
      );
    }
    const replaced = await admin(
      'licences',
      'resend',
      licence.id,
      '--new-key',
      '--keep-tokens',
      jenkins.id.toUpperCase(),
    );
    expect(replaced.code).toBe(0);
    expect(replaced.out).toContain('Revoked 1 access token with the old key; 1 access token kept.');
    const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
    expect(await validate('', bearer(jenkins.token))).toMatchObject({ valid: true });
    expect(await validate('', bearer(unknown.token))).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('creates, lists and disables referral codes', async () => {
    const created = await admin('referral-codes', 'create', 'partner-2026', '--note', 'Partner A');
    expect(created).toMatchObject({
      code: 0,
      out: 'Created referral code PARTNER-2026 (Partner A).',
    });
    expect((await admin('referral-codes', 'create', 'PARTNER-2026')).code).toBe(1);
    expect((await admin('referral-codes', 'create', 'no spaces')).code).toBe(2);
    const listed = await admin('referral-codes', 'list');
    expect(listed.out).toMatch(/PARTNER-2026\s+active/);
    expect((await admin('referral-codes', 'disable', 'partner-2026')).code).toBe(0);
    expect((await admin('referral-codes', 'list')).out).not.toContain('PARTNER-2026');
    expect((await admin('referral-codes', 'list', '--all')).out).toMatch(/PARTNER-2026\s+disabled/);
    expect((await admin('referral-codes', 'disable', 'unknown-code')).code).toBe(1);
  });

  it('lists contact messages, newest first', async () => {
    await t.deps.database.db.insert(contactMessages).values([
      {
        id: crypto.randomUUID(),
        email: 'a@example.com',
        name: 'Ada',
        message: 'First\nline two',
        createdAt: new Date('2026-01-10T09:00:00Z'),
      },
      {
        id: crypto.randomUUID(),
        email: 'b@example.com',
        name: 'Bob',
        message: 'Second',
        company: 'Acme',
        createdAt: new Date('2026-01-12T09:00:00Z'),
      },
    ]);
    const listed = await admin('contact-messages', 'list');
    expect(listed.code).toBe(0);
    expect(listed.out.indexOf('Bob')).toBeLessThan(listed.out.indexOf('Ada'));
    expect(listed.out).toContain('  line two');
    const since = await admin('contact-messages', 'list', '--since', '2026-01-11');
    expect(since.out).not.toContain('Ada');
    expect((await admin('contact-messages', 'list', '--since', 'yesterday')).code).toBe(2);
  });

  it('shows the outbox and retries failed messages', async () => {
    const outbox = createOutboxRepository(t.deps.database.db);
    const row = await outbox.enqueue(
      {
        kind: 'test-mail',
        to: 'failing@example.com',
        subject: 'Hi',
        text: 'Hi',
        html: '<p>Hi</p>',
      },
      now,
    );
    await t.deps.database.db
      .update(emailOutbox)
      .set({ status: 'failed', attempts: 20, lastError: '550 mailbox unavailable' })
      .where(eq(emailOutbox.id, row.id));
    const shown = await admin('outbox', 'show', '--status', 'failed');
    expect(shown.code).toBe(0);
    expect(shown.out).toContain('failing@example.com');
    expect(shown.out).toContain('550 mailbox unavailable');
    const retried = await admin('outbox', 'retry', String(row.id));
    expect(retried.code).toBe(0);
    const after = await outbox.findById(row.id);
    expect(after).toMatchObject({ status: 'pending', attempts: 0 });
    expect((await admin('outbox', 'retry', '999999')).code).toBe(1);
    expect((await admin('outbox', 'retry', 'abc')).code).toBe(2);
    expect((await admin('outbox', 'show', '--status', 'weird')).code).toBe(2);
  });

  it('creates, lists and revokes access tokens', async () => {
    const { licence, key } = await createLicence(t);
    const created = await admin('access-tokens', 'create', licence.id, '--name', 'Jenkins');
    expect(created.code).toBe(0);
    const token = /orgsmith_at_[A-Za-z0-9_-]{43}/.exec(created.out)?.[0] ?? '';
    expect(await validate(key)).toMatchObject({ valid: true });
    expect(await validate('', { Authorization: `Bearer ${token}` })).toMatchObject({ valid: true });
    const listed = await admin('access-tokens', 'list', licence.id);
    expect(listed.out).toContain('Jenkins');
    expect(listed.out).not.toContain(token);
    const id = /[0-9a-f]{8}-[0-9a-f-]{27}/.exec(listed.out)?.[0] ?? '';
    expect((await admin('access-tokens', 'revoke', id)).code).toBe(0);
    expect(await validate('', { Authorization: `Bearer ${token}` })).toMatchObject({
      code: 'NOT_FOUND',
    });
    expect((await admin('access-tokens', 'create', licence.id)).code).toBe(2);
    expect((await admin('access-tokens', 'revoke', 'nope')).code).toBe(2);
  });
});
