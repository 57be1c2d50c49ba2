import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  emailOutbox,
  quoteNumberCounters,
  quotes,
  rateLimitCounters,
} from '#server/platform/db/schema.ts';
import { rateLimitRules } from '#server/platform/rate-limit/rate-limit-rules.ts';
import { createOutboxDelivery } from '#server/platform/email/deliver-outbox.ts';
import { createSmtpTransport } from '#server/platform/email/smtp-transport.ts';
import { createLogger } from '#server/platform/logger.ts';
import { startSmtpSink } from '#tests/support/smtp-sink.ts';
import { databaseTargets } from '../support/databases.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { freshIp, outboxRows, postJson } from './account-support.ts';

const run = promisify(execFile);
const PATH = '/account/v1/quotes';

const valid = {
  companyName: 'Müller & Söhne GmbH',
  emailAddress: 'buyer@example.com',
  addressLine: ' 12 rue de Rivoli ',
  postalCode: '75001',
  city: 'Paris',
  country: 'FR',
  vatId: 'fr 40 303 265 045',
  purchaseOrder: 'PO-77',
  edition: 'Enterprise',
  quantity: 25,
  billingPeriod: 'yearly',
  billingCurrency: 'USD',
};

const responseShape = {
  number: expect.stringMatching(/^Q-2026-\d{4}$/),
  validUntil: '2026-02-14',
  downloadUrl: expect.stringMatching(
    /^http:\/\/localhost:3000\/quotes\/Q-2026-\d{4}\.pdf\?token=[\w-]{32}$/,
  ),
  acceptUrl: expect.stringMatching(/^http:\/\/localhost:3000\/quote\/accept\?token=[\w-]{32}$/),
};

/** The text of a PDF as poppler's pdftotext reads it. */
async function pdfText(bytes: ArrayBuffer): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'quote-pdf-'));
  try {
    const file = join(dir, 'quote.pdf');
    await writeFile(file, Buffer.from(bytes));
    const { stdout } = await run('pdftotext', ['-layout', file, '-']);
    return stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** What poppler's pdfinfo says about a PDF. */
async function pdfInfo(bytes: ArrayBuffer): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'quote-pdf-'));
  try {
    const file = join(dir, 'quote.pdf');
    await writeFile(file, Buffer.from(bytes));
    return (await run('pdfinfo', [file])).stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const pathOf = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

describe.each(databaseTargets)('quotes on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    t.setNow(new Date('2026-01-15T10:00:00Z'));
    const db = t.deps.database.db;
    await db.delete(quotes);
    await db.delete(quoteNumberCounters);
    await db.delete(emailOutbox);
    await db.delete(rateLimitCounters);
  });

  async function nothingWritten() {
    expect(await t.deps.database.db.select().from(quotes)).toEqual([]);
    expect(await outboxRows(t)).toEqual([]);
  }

  it('makes a quote: 201 with its number and links, stored, e-mailed with the links', async () => {
    const res = await postJson(t, PATH, valid);
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = await res.json();
    expect(body).toEqual({ ...responseShape, number: 'Q-2026-0001' });

    const [stored, ...more] = await t.deps.database.db.select().from(quotes);
    expect(more).toEqual([]);
    expect(stored).toMatchObject({
      number: 'Q-2026-0001',
      year: 2026,
      sequence: 1,
      companyName: 'Müller & Söhne GmbH',
      email: 'buyer@example.com',
      billingAddress: '12 rue de Rivoli\n75001 Paris\nFrance',
      vatId: 'FR40303265045',
      purchaseOrder: 'PO-77',
      edition: 'Enterprise',
      quantity: 25,
      billingPeriod: 'yearly',
      currency: 'USD',
      totalCents: 3_780_000,
      quoteDate: '2026-01-15',
      validUntil: '2026-02-14',
    });
    // Only a keyed hash of the token is kept.
    const token = new URL(body.downloadUrl).searchParams.get('token') ?? '';
    expect(JSON.stringify(stored)).not.toContain(token);

    const [mail, ...others] = await outboxRows(t);
    expect(others).toEqual([]);
    expect(mail).toMatchObject({
      kind: 'quote',
      toAddress: 'buyer@example.com',
      subject: 'Your Orgsmith quote Q-2026-0001',
      status: 'pending',
    });
    expect(mail?.textBody).toContain(body.downloadUrl);
    expect(mail?.textBody).toContain(body.acceptUrl);
    expect(mail?.textBody).toContain('Net per year');
    expect(mail?.textBody).toContain('$37,800.00');
    expect(mail?.textBody).toContain('VAT 0 % (reverse charge)');
    expect(mail?.textBody).toContain('Reverse charge');
    // The PDF itself rides along (decision 181), the same as the link serves.
    expect(mail?.attachments?.map(({ filename, contentType }) => [filename, contentType])).toEqual([
      ['Q-2026-0001.pdf', 'application/pdf'],
    ]);
    const attached = Buffer.from(mail?.attachments?.[0]?.contentBase64 ?? '', 'base64');
    const text = await pdfText(new Uint8Array(attached).buffer);
    expect(text).toContain('Q-2026-0001');
    expect(text).toContain('Müller & Söhne GmbH');
    expect(text).toContain('$37,800.00');
  });

  it('delivers the quote e-mail over SMTP with its PDF attached, then keeps no copy', async () => {
    const body = await (await postJson(t, PATH, valid)).json();
    const sink = await startSmtpSink();
    const transport = createSmtpTransport(sink.url);
    try {
      const delivery = createOutboxDelivery({
        db: t.deps.database.db,
        transport,
        from: 'Orgsmith <no-reply@orgsmith.io>',
        clock: t.deps.clock,
        logger: createLogger('silent'),
      });
      expect(await delivery.deliverDue()).toMatchObject({ sent: 1 });
      const mail = await sink.waitForMail({ to: 'buyer@example.com' });
      expect(mail.subject).toBe(`Your Orgsmith quote ${body.number}`);
      expect(mail.text).toContain(body.downloadUrl);
      expect(mail.attachments.map((a) => [a.filename, a.contentType])).toEqual([
        [`${body.number}.pdf`, 'application/pdf'],
      ]);
      const text = await pdfText(new Uint8Array(mail.attachments[0]?.content ?? []).buffer);
      expect(text).toContain(body.number);
      expect(text).toContain('Müller & Söhne GmbH');
      // The link serves the same document.
      const linked = await pdfText(
        await (await t.app.request(pathOf(body.downloadUrl))).arrayBuffer(),
      );
      expect(linked).toBe(text);
      const [row] = await outboxRows(t);
      expect(row).toMatchObject({
        status: 'sent',
        textBody: null,
        htmlBody: null,
        attachments: null,
      });
    } finally {
      transport.close();
      await sink.close();
    }
  });

  it('serves the PDF to the token: number, company, lines, totals, saving and tax note', async () => {
    const body = await (await postJson(t, PATH, valid)).json();
    const res = await t.app.request(pathOf(body.downloadUrl));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe('inline; filename="Q-2026-0001.pdf"');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const bytes = await res.arrayBuffer();
    expect(Buffer.from(bytes).subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(bytes);
    expect(text).toContain('Q-2026-0001');
    expect(text).toContain('Müller & Söhne GmbH');
    expect(text).toContain('75001 Paris');
    expect(text).toContain('France');
    expect(text).toContain('VAT ID: FR40303265045');
    expect(text).toContain('PO-77');
    expect(text).toContain('Orgsmith Enterprise licence');
    expect(text).toMatch(/Net per year\s+\$37,800\.00/);
    expect(text).toMatch(/VAT 0 % \(reverse charge\)\s+\$0\.00/);
    expect(text).toMatch(/Total per year\s+\$37,800\.00/);
    expect(text).toContain('you save $4,200.00');
    expect(text).toContain('Reverse charge');
    expect(text).not.toContain('+ local tax');
    expect(text).toContain('2026-02-14');
    expect(text).toContain('Orgsmith GmbH');
    expect(text).toContain('DE318765432');
    expect(text).toContain(body.acceptUrl);
    // Tagged, in English, titled with its number (shown as the window title).
    const info = await pdfInfo(bytes);
    expect(info).toMatch(/^Tagged:\s+yes$/m);
    expect(info).toMatch(/^Title:\s+Quote Q-2026-0001$/m);
    expect(info).toMatch(/^Pages:\s+1$/m);
    const raw = Buffer.from(bytes).toString('latin1');
    expect(raw).toContain('/Lang (en)');
    expect(raw).toContain('/DisplayDocTitle true');
    expect(raw).toContain('/StructTreeRoot');
    // The same bytes again (kept after the first drawing).
    const again = await t.app.request(pathOf(body.downloadUrl));
    expect(Buffer.from(await again.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
  });

  it('adds 19 % VAT for a German business, and monthly has no saving', async () => {
    const body = await (
      await postJson(t, PATH, {
        companyName: 'Acme GmbH',
        emailAddress: 'ap@acme.example',
        addressLine: 'Hauptstraße 1',
        postalCode: '10115',
        city: 'Berlin',
        country: 'DE',
        vatId: 'DE123456789',
        edition: 'Pro',
        quantity: 10,
        billingPeriod: 'monthly',
        billingCurrency: 'EUR',
      })
    ).json();
    const text = await pdfText(await (await t.app.request(pathOf(body.downloadUrl))).arrayBuffer());
    expect(text).toContain('Acme GmbH');
    expect(text).toMatch(/Orgsmith Pro licence\s+1\s+€458\.00\s+€458\.00/);
    expect(text).toMatch(/Additional Salesforce orgs\s+6\s+€125\.00\s+€750\.00/);
    expect(text).toMatch(/Net per month\s+€1,208\.00/);
    // 19 % of €1,208.00 is €229.52.
    expect(text).toMatch(/VAT 19 %\s+€229\.52/);
    expect(text).toMatch(/Total per month\s+€1,437\.52/);
    expect(text).not.toContain('+ local tax');
    expect(text).not.toContain('Reverse charge');
    expect(text).not.toContain('you save');
  });

  it('charges no German VAT outside the EU and says why', async () => {
    const body = await (
      await postJson(t, PATH, {
        ...valid,
        companyName: 'Acme Inc.',
        addressLine: '1 Main St',
        postalCode: '10001',
        city: 'New York',
        state: 'NY',
        country: 'US',
        vatId: null,
      })
    ).json();
    const text = await pdfText(await (await t.app.request(pathOf(body.downloadUrl))).arrayBuffer());
    expect(text).toMatch(/VAT 0 % \(not taxable in Germany\)\s+\$0\.00/);
    // A US address as the US post writes it, its state included (decision 219).
    expect(text).toContain('New York, NY 10001');
    expect(text).toContain('Not taxable in Germany');
    expect(text).toContain('United States');
  });

  it('answers 404 to a wrong, missing or another quote’s token and to unknown numbers', async () => {
    const first = await (await postJson(t, PATH, valid)).json();
    const second = await (
      await postJson(t, PATH, { ...valid, emailAddress: 'b@example.com' })
    ).json();
    expect(second.number).toBe('Q-2026-0002');
    const secondToken = new URL(second.downloadUrl).searchParams.get('token');
    for (const path of [
      `/quotes/${first.number}.pdf?token=${'A'.repeat(32)}`,
      `/quotes/${first.number}.pdf`,
      `/quotes/${first.number}.pdf?token=${secondToken}`,
      `/quotes/Q-2026-0003.pdf?token=${secondToken}`,
      `/quotes/Q-2026-002.pdf?token=${secondToken}`,
    ]) {
      const res = await t.app.request(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type') ?? '', path).not.toContain('pdf');
    }
  });

  it('refuses invalid input with 400 and the forms’ messages, writing nothing', async () => {
    const res = await postJson(t, PATH, {
      edition: 'Pro',
      quantity: 4,
      billingPeriod: 'monthly',
      billingCurrency: 'USD',
    });
    expect(res.status).toBe(400);
    const json = await res.json();
    expect(json.Error).toBe('InvalidRequest');
    expect(json.issues).toEqual([
      { field: 'companyName', message: 'companyName: You must enter your company name.' },
      { field: 'emailAddress', message: 'emailAddress: You must enter an email address.' },
      { field: 'addressLine', message: 'addressLine: You must enter the street and number.' },
      { field: 'postalCode', message: 'postalCode: You must enter the postal code.' },
      { field: 'city', message: 'city: You must enter the city.' },
      { field: 'country', message: 'country: Choose the country from the list.' },
    ]);
    await nothingWritten();
  });

  it.each([
    [
      'an invalid e-mail address',
      { emailAddress: 'buyer@' },
      'emailAddress: This is not a valid email address.',
    ],
    [
      "another EU state's VAT ID",
      { vatId: 'DE123456789' },
      'vatId: This VAT ID is from Germany. Choose Germany as the country',
    ],
    [
      "a VAT ID not in the state's format",
      { vatId: 'FR123' },
      'vatId: This is not a valid VAT ID for France: FR, 2 letters or digits and 9 digits, e.g. FR40303265045.',
    ],
    [
      'an EU VAT ID for a country outside the EU',
      { country: 'US', vatId: 'FR40303265045' },
      'vatId: This VAT ID is from France.',
    ],
    ['a VAT ID over 40 characters', { vatId: 'FR'.repeat(21) }, 'at most 40 characters'],
    ['a VAT ID that is not text', { vatId: 12 }, 'vatId: Expected text.'],
    ['an unknown country code', { country: 'XX' }, 'country: Choose the country from the list.'],
    ['a three-letter country', { country: 'FRA' }, 'country: Choose the country from the list.'],
    ['a country that is not text', { country: ['FR'] }, 'country: Choose the country'],
    ['a street over 200 characters', { addressLine: 'x'.repeat(201) }, 'at most 200 characters'],
    ['a line break in the city', { city: 'Paris\nBcc: x' }, 'single line'],
    ['a postal code over 20 characters', { postalCode: '1'.repeat(21) }, 'at most 20 characters'],
    [
      'a company name over 200 characters',
      { companyName: 'x'.repeat(201) },
      'at most 200 characters',
    ],
    ['a line break in the company name', { companyName: 'A\nB' }, 'single line'],
    ['the old free-text address', { billingAddress: 'Rue 1' }, 'Unknown fields: billingAddress.'],
    [
      'a purchase order over 100 characters',
      { purchaseOrder: 'x'.repeat(101) },
      'at most 100 characters',
    ],
    ['Starter', { edition: 'Starter', quantity: 3 }, 'Quotes are made for Pro and Enterprise.'],
    [
      'a size that does not fit the edition',
      { edition: 'Pro', quantity: 25 },
      'quantity: The quantity does not fit',
    ],
    ['an unknown currency', { billingCurrency: 'GBP' }, 'billingCurrency'],
    ['an unknown field', { discount: 50 }, 'Unknown fields: discount.'],
  ])('refuses %s', async (_label, change, message) => {
    const res = await postJson(t, PATH, { ...valid, ...change });
    expect(res.status).toBe(400);
    const json = await res.json();
    expect(json.Error).toBe('InvalidRequest');
    expect(json.message).toContain(message);
    await nothingWritten();
  });

  it('accepts a VAT ID in any spelling people type and leaves optional fields out', async () => {
    const res = await postJson(t, PATH, {
      companyName: 'Acme',
      emailAddress: 'a@acme.example',
      vatId: '  123.456.789 ',
      addressLine: 'Hauptstraße 1',
      postalCode: '10115',
      city: 'Berlin',
      country: 'de',
      purchaseOrder: '',
      edition: 'Pro',
      quantity: 4,
      billingPeriod: 'monthly',
      billingCurrency: 'USD',
    });
    expect(res.status).toBe(201);
    const [stored] = await t.deps.database.db.select().from(quotes);
    expect(stored).toMatchObject({
      vatId: 'DE123456789',
      billingAddress: 'Hauptstraße 1\n10115 Berlin\nGermany',
      purchaseOrder: null,
    });
  });

  it('needs the CSRF header (403) and JSON (415)', async () => {
    const res = await t.app.request(PATH, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': freshIp() },
      body: JSON.stringify(valid),
    });
    expect(res.status).toBe(403);
    expect(
      (await postJson(t, PATH, 'a=b', { headers: { 'Content-Type': 'text/plain' } })).status,
    ).toBe(415);
    await nothingWritten();
  });

  it('limits quotes per e-mail address and per client address (429 with Retry-After)', async () => {
    const { limit } = rateLimitRules.quotePerEmail;
    for (let n = 0; n < limit; n++) {
      expect(
        (await postJson(t, PATH, { ...valid, emailAddress: `buyer+${n}@example.com` })).status,
      ).toBe(201);
    }
    const limited = await postJson(t, PATH, valid);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe(String(60 * 60));
    expect(await limited.json()).toMatchObject({ Error: 'TooManyRequests' });

    const ip = freshIp();
    for (let n = 0; n < rateLimitRules.quotePerIp.limit; n++) {
      await postJson(t, PATH, '{"broken":', { ip });
    }
    expect(
      (await postJson(t, PATH, { ...valid, emailAddress: 'new@example.com' }, { ip })).status,
    ).toBe(429);
    expect(await t.deps.database.db.select().from(quotes)).toHaveLength(limit);
  });

  it('gives concurrent quotes distinct numbers in sequence, per year', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        postJson(t, PATH, { ...valid, emailAddress: `c${n}@example.com` }).then((res) =>
          res.json(),
        ),
      ),
    );
    const numbers = answers.map((answer) => answer.number).sort();
    expect(numbers).toEqual(Array.from({ length: 8 }, (_, n) => `Q-2026-000${n + 1}`));
    t.setNow(new Date('2026-12-31T23:30:00Z'));
    // Already 1 January in Hamburg: the new year counts from 1.
    const next = await (
      await postJson(t, PATH, { ...valid, emailAddress: 'ny@example.com' })
    ).json();
    expect(next.number).toBe('Q-2027-0001');
  });
});
