import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { contactMessages, emailOutbox } from '#server/platform/db/schema.ts';
import { databaseTargets } from '../support/databases.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { outboxRows, postJson } from './account-support.ts';

const PATH = '/api/submitContactForm';
const valid = {
  name: 'Jane Doe',
  emailAddress: 'jane.doe@example.com',
  message: 'Hello,\nwe would like a demo for <our> team & partners.',
  role: 'Release manager',
  company: 'Acme Corp',
};

describe.each(databaseTargets)('POST /api/submitContactForm on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target, { env: { SUPPORT_EMAIL: 'inbox@orgsmith.test' } });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.deps.database.db.delete(contactMessages);
    await t.deps.database.db.delete(emailOutbox);
  });

  async function nothingWritten() {
    expect(await t.deps.database.db.select().from(contactMessages)).toEqual([]);
    expect(await outboxRows(t)).toEqual([]);
  }

  it('stores the message and queues it for the support inbox with Reply-To the visitor', async () => {
    const res = await postJson(t, PATH, valid);
    expect(res.status).toBe(204);
    const [stored, ...more] = await t.deps.database.db.select().from(contactMessages);
    expect(more).toEqual([]);
    expect(stored).toMatchObject({
      name: 'Jane Doe',
      email: 'jane.doe@example.com',
      message: valid.message,
      role: 'Release manager',
      company: 'Acme Corp',
    });
    const [mail, ...others] = await outboxRows(t);
    expect(others).toEqual([]);
    expect(mail).toMatchObject({
      kind: 'contact-message',
      toAddress: 'inbox@orgsmith.test',
      replyTo: 'jane.doe@example.com',
      subject: 'Contact form: Jane Doe (Acme Corp)',
      status: 'pending',
    });
    expect(mail?.textBody).toContain('> we would like a demo for <our> team & partners.');
    expect(mail?.textBody).toContain('Role: Release manager');
    expect(mail?.htmlBody).toContain('we would like a demo for &lt;our&gt; team &amp; partners.');
    expect(mail?.htmlBody).not.toContain('<our>');
  });

  it('accepts a message without role and company', async () => {
    const res = await postJson(t, PATH, {
      name: 'Li',
      emailAddress: 'li@example.org',
      message: 'Hi',
    });
    expect(res.status).toBe(204);
    const [stored] = await t.deps.database.db.select().from(contactMessages);
    expect(stored).toMatchObject({ role: null, company: null });
    const [mail] = await outboxRows(t);
    expect(mail?.subject).toBe('Contact form: Li');
  });

  it('answers a filled honeypot like a success but stores and sends nothing', async () => {
    const res = await postJson(t, PATH, { ...valid, website: 'http://spam.example' });
    expect(res.status).toBe(204);
    await nothingWritten();
  });

  it('names every missing field with the spec texts', async () => {
    const res = await postJson(t, PATH, {});
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toMatchObject({ Error: 'InvalidRequest' });
    expect(body.issues).toEqual([
      { field: 'name', message: 'name: You must enter your name.' },
      { field: 'emailAddress', message: 'emailAddress: You must enter an email address.' },
      { field: 'message', message: 'message: A message text is required.' },
    ]);
    await nothingWritten();
  });

  it.each([
    [
      'an invalid e-mail address',
      { ...valid, emailAddress: 'jane@' },
      'This is not a valid email address.',
    ],
    ['a blank name', { ...valid, name: '   ' }, 'You must enter your name.'],
    ['a number as name', { ...valid, name: 7 }, 'name: Expected text.'],
    ['a name over 200 characters', { ...valid, name: 'x'.repeat(201) }, 'at most 200 characters'],
    ['a message over 5000 characters', { ...valid, message: 'x'.repeat(5001) }, 'at most 5000'],
    ['a line break in the company', { ...valid, company: 'A\r\nBcc: a@b.c' }, 'single line'],
    ['an unknown field', { ...valid, admin: true }, 'Unknown fields: admin.'],
    ['an array body', [valid], 'must be a JSON object'],
    ['malformed JSON', '{"name": "Jane",', 'not valid JSON'],
    ['an empty body', '', 'not valid JSON'],
  ])('refuses %s with 400 and writes nothing', async (_label, body, message) => {
    const res = await postJson(t, PATH, body);
    expect(res.status).toBe(400);
    const json = await res.json();
    expect(json.Error).toBe('InvalidRequest');
    expect(json.message).toContain(message);
    await nothingWritten();
  });

  it('refuses other content types with 415', async () => {
    const res = await postJson(t, PATH, 'name=Jane', {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ Error: 'UnsupportedMediaType' });
    const text = await postJson(t, PATH, JSON.stringify(valid), {
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    await nothingWritten();
  });

  it('refuses bodies over 16 KiB with 413', async () => {
    const res = await postJson(t, PATH, { ...valid, message: 'x'.repeat(20_000) });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ Error: 'PayloadTooLarge' });
    await nothingWritten();
  });

  it('requires the CSRF header', async () => {
    const res = await t.app.request(PATH, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(valid),
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ Error: 'CsrfTokenInvalid' });
    await nothingWritten();
  });
});
