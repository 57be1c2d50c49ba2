import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { and, between, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentDocumentSchema } from '#server/billing/documents/payment-document.ts';
import { fxRateDomain } from '#server/billing/fx-rates/fx-rate-module.ts';
import { localInvoices, paymentDocuments } from '#server/platform/db/schema.ts';
import type { InvoiceCheckoutRequestInput } from '#shared/contracts/invoice-checkout.ts';
import { orderAndConfirm } from '#tests/security/support/invoice-orders.ts';
import { databaseTargets } from '../support/databases.ts';
import { pdfText } from '../support/finance-checklist.ts';
import { runAdminOn } from '../support/licensing.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import {
  createCheckout,
  licencesOf,
  payLocally,
  pro10YearlyEur,
  successCard,
} from './checkout-support.ts';

/**
 * What the accountant asks for each month (issue 39 item 4, decision 221): `documents list`,
 * `documents export --csv / --zip`, `documents ec-sales-list`, and the rates to the euro that
 * USD documents with German VAT freeze (`fx-rates set / fetch`), through the admin command line
 * on both databases.
 */

const run = promisify(execFile);

/** A stand-in for the ECB's daily file, served over HTTP; `xml` is what it answers next. */
async function startEcbFake(): Promise<{ url: string; xml: string; server: Server }> {
  const fake = {
    url: '',
    xml: '',
    server: createServer((_req, res) => {
      res.writeHead(fake.xml ? 200 : 503, { 'content-type': 'text/xml' });
      res.end(fake.xml || 'unavailable');
    }),
  };
  await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}/eurofxref-daily.xml`;
  return fake;
}

const ecbFile = (day: string, usd: string) => `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
<Cube><Cube time='${day}'><Cube currency='USD' rate='${usd}'/><Cube currency='JPY' rate='161.23'/></Cube></Cube>
</gesmes:Envelope>`;

function invoiceOrder(
  over: Partial<InvoiceCheckoutRequestInput> & Pick<InvoiceCheckoutRequestInput, 'billingEmail'>,
): InvoiceCheckoutRequestInput {
  return {
    edition: 'Pro',
    quantity: 10,
    billingPeriod: 'yearly',
    billingCurrency: 'EUR',
    companyName: 'Beispiel Handels GmbH',
    addressLine: 'Hauptstraße 1',
    postalCode: '10115',
    city: 'Berlin',
    country: 'DE',
    ...over,
  };
}

const exemple = {
  companyName: 'Exemple SA',
  addressLine: '1 rue de Rivoli',
  postalCode: '75001',
  city: 'Paris',
  country: 'FR',
  vatId: 'FR40303265045',
};

/** CSV lines as fields (the export quotes no field here but the checks stay honest). */
const fields = (line: string) => line.split(',');
const cents = (decimal: string) => Math.round(Number(decimal) * 100);

describe.each(databaseTargets)('the accountant’s month on $name', (target) => {
  let t: TestApp;
  let ecb: Awaited<ReturnType<typeof startEcbFake>>;
  let dir: string;
  const numbers: Record<string, string> = {};

  async function documentOf(subscriptionId: string) {
    const [row] = await t.deps.database.db
      .select()
      .from(paymentDocuments)
      .where(eq(paymentDocuments.subscriptionId, subscriptionId));
    if (!row) throw new Error(`no document of ${subscriptionId}`);
    return { row, document: paymentDocumentSchema.parse(row.document) };
  }

  async function buyByCard(email: string, currency: 'EUR' | 'USD') {
    const { sessionId } = await createCheckout(t, { ...pro10YearlyEur, billingCurrency: currency });
    expect((await payLocally(t, sessionId, { email, card: successCard })).status).toBe(303);
    const [licence] = await licencesOf(t, email);
    return documentOf(licence?.subscriptionId ?? '');
  }

  async function orderByInvoice(body: InvoiceCheckoutRequestInput) {
    return documentOf((await orderAndConfirm(t, body)).subscriptionId);
  }

  beforeAll(async () => {
    ecb = await startEcbFake();
    dir = await mkdtemp(join(tmpdir(), 'documents-books-'));
    t = await createTestApp(target, {
      now: new Date('2026-11-02T10:00:00Z'),
      env: { ECB_RATES_URL: ecb.url },
    });
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => ecb.server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it('issues a USD receipt with German VAT before any rate is known without a EUR figure, and says so', async () => {
    const { row, document } = await buyByCard('early@books.test', 'USD');
    numbers.early = row.number;
    expect(document.eur).toBeNull();
    expect(document.vatMinor).toBe(267_786);
    const pdf = await runAdminOn(
      t,
      'invoices',
      'show',
      row.number,
      '--pdf',
      join(dir, 'early.pdf'),
    );
    expect(pdf.code).toBe(0);
    expect(await pdfText(await readFile(join(dir, 'early.pdf')))).toMatch(
      /VAT in EUR: not stated, as no USD rate to the euro had been\s+recorded\s+when\s+this\s+document\s+was\s+issued\./,
    );
  });

  it('records rates by hand and refuses what is not one, changing nothing', async () => {
    t.setNow(new Date('2026-11-27T10:00:00Z'));
    for (const [args, message] of [
      [['EUR', '2026-11-26', '1'], /not a currency with a rate to the euro/],
      [['GBP', '2026-11-26', '0.85'], /not a currency with a rate/],
      [['USD', '2026-11-31', '1.05'], /date like 2026-11-27/],
      [['USD', '26.11.2026', '1.05'], /date like/],
      [['USD', '2026-11-28', '1.05'], /in the future/],
      [['USD', '2026-11-26', '1,05'], /rate like 1\.0512/],
      [['USD', '2026-11-26', '0'], /rate above 0/],
      [['USD', '2026-11-26', 'abc'], /rate like/],
      [['USD', '2026-11-26', '1.05', '--source', '=cmd|x'], /--source must be/],
      [['USD'], /Missing <date>/],
    ] as const) {
      const answer = await runAdminOn(t, 'fx-rates', 'set', ...args);
      expect(answer.code, args.join(' ')).toBe(2);
      expect(answer.err, args.join(' ')).toMatch(message);
    }
    expect((await runAdminOn(t, 'fx-rates', 'list')).out).toBe(
      'No rates recorded from 2026-10-28 to 2026-11-27.',
    );
    const set = await runAdminOn(
      t,
      'fx-rates',
      'set',
      'usd',
      '2026-11-20',
      '1.049',
      '--source',
      'ECB',
    );
    expect(set).toMatchObject({
      code: 0,
      out: 'Recorded: 1 EUR = 1.0490 USD on 2026-11-20 (ECB).',
    });
    expect((await runAdminOn(t, 'fx-rates', 'set', 'USD', '2026-11-20', '1.0490')).out).toMatch(
      /^Already recorded/,
    );
    const conflict = await runAdminOn(t, 'fx-rates', 'set', 'USD', '2026-11-20', '1.2');
    expect(conflict.code).toBe(1);
    expect(conflict.err).toMatch(/--replace/);
  });

  it('fetches the ECB’s rates from its file; a bad or unreachable file records nothing', async () => {
    const fetchRates = () => runAdminOn(t, 'fx-rates', 'fetch', '--url', ecb.url);
    // With ECB_RATES_URL set, the service's hourly job records what is new by itself.
    const [job, ...others] = fxRateDomain.jobs?.({ deps: t.deps }) ?? [];
    expect(others).toEqual([]);
    expect(job).toMatchObject({ name: 'ecb-rates', scope: 'cluster', everyMs: 3_600_000 });
    ecb.xml = ecbFile('2026-11-25', '1.0500');
    expect(await job?.run(new AbortController().signal)).toBe(1);
    expect(await job?.run(new AbortController().signal)).toBe(0);
    ecb.xml = '';
    await expect(job?.run(new AbortController().signal)).rejects.toThrow(/503/);

    ecb.xml = '';
    const down = await fetchRates();
    expect(down.code).toBe(1);
    expect(down.err).toMatch(/answered 503/);
    ecb.xml = '<html>maintenance</html>';
    expect((await fetchRates()).err).toMatch(/holds no ECB reference rates/);
    expect((await runAdminOn(t, 'fx-rates', 'fetch', '--url', 'file:///etc/passwd')).code).toBe(2);

    ecb.xml = ecbFile('2026-11-26', '1.0512');
    const fetched = await fetchRates();
    expect(fetched).toMatchObject({ code: 0, out: '2026-11-26 USD 1.0512: recorded' });
    expect((await fetchRates()).out).toBe('2026-11-26 USD 1.0512: unchanged');
    ecb.xml = ecbFile('2026-11-26', '1.0600');
    const differs = await fetchRates();
    expect(differs.code).toBe(1);
    expect(differs.out).toMatch(/a different rate is recorded, kept/);
    const listed = await runAdminOn(t, 'fx-rates', 'list');
    expect(listed.out.split('\n')).toEqual([
      expect.stringMatching(/^DATE\s+CURRENCY\s+PER 1 EUR\s+SOURCE\s+RECORDED BY$/),
      expect.stringMatching(/^2026-11-26\s+USD\s+1\.0512\s+ECB\s+fx-rates fetch$/),
      expect.stringMatching(/^2026-11-25\s+USD\s+1\.0500\s+ECB\s+ecb-rates job$/),
      expect.stringMatching(/^2026-11-20\s+USD\s+1\.0490\s+ECB\s+fx-rates set$/),
    ]);
  });

  it('lists, exports and sums the month: invoices and receipts, totals per currency that add up', async () => {
    // 2026-11-27, 11:00 in Hamburg: the ECB's rate of the day is not out yet, the 26th's is used.
    const eurCard = await buyByCard('card-eur@books.test', 'EUR');
    const usdCard = await buyByCard('card-usd@books.test', 'USD');
    expect(usdCard.document.eur).toEqual({
      perEur: '1.0512',
      rateOn: '2026-11-26',
      source: 'ECB',
      netMinor: 1_340_753,
      vatMinor: 254_743,
      grossMinor: 1_595_497,
    });
    expect((await runAdminOn(t, 'invoices', 'show', usdCard.row.number)).out).toContain(
      'In EUR:  net €13,407.53, VAT €2,547.43, gross €15,954.97 at 1 EUR = 1.0512 USD (ECB, 2026-11-26)',
    );
    const german = await orderByInvoice(invoiceOrder({ billingEmail: 'ap@beispiel.test' }));
    const french = await orderByInvoice(
      invoiceOrder({ billingEmail: 'ap@exemple.test', ...exemple }),
    );
    const frenchUsd = await orderByInvoice(
      invoiceOrder({ billingEmail: 'ap-usd@exemple.test', billingCurrency: 'USD', ...exemple }),
    );
    const american = await orderByInvoice(
      invoiceOrder({
        billingEmail: 'ap@example-inc.test',
        billingCurrency: 'USD',
        companyName: 'Example, Inc.',
        addressLine: '500 Howard Street',
        postalCode: '94105',
        city: 'San Francisco',
        state: 'CA',
        country: 'US',
      }),
    );
    Object.assign(numbers, {
      eurCard: eurCard.row.number,
      usdCard: usdCard.row.number,
      german: german.row.number,
      french: french.row.number,
      frenchUsd: frenchUsd.row.number,
      american: american.row.number,
    });
    // The German buyer pays the next day; a December document stays out of November.
    t.setNow(new Date('2026-11-28T09:00:00Z'));
    const [localInvoice] = await t.deps.database.db
      .select()
      .from(localInvoices)
      .where(
        and(eq(localInvoices.id, german.row.providerInvoiceId), isNotNull(localInvoices.number)),
      );
    expect((await runAdminOn(t, 'invoices', 'mark-paid', localInvoice?.number ?? '')).code).toBe(0);
    t.setNow(new Date('2026-12-01T09:00:00Z'));
    const december = await buyByCard('december@books.test', 'EUR');

    const inPeriod = await t.deps.database.db
      .select()
      .from(paymentDocuments)
      .where(between(paymentDocuments.issuedOn, '2026-11-01', '2026-11-30'));
    const period = ['--from', '2026-11-01', '--to', '2026-11-30'];

    const listed = await runAdminOn(t, 'documents', 'list', ...period);
    expect(listed.code, listed.err).toBe(0);
    const lines = listed.out.split('\n');
    expect(lines[0]).toMatch(
      /^NUMBER\s+TYPE\s+DATE\s+BUYER\s+COUNTRY\s+VAT ID\s+NET\s+VAT\s+GROSS\s+VAT IN EUR\s+PAID ON$/,
    );
    for (const number of Object.values(numbers)) {
      expect(
        lines.filter((line) => line.startsWith(`${number} `)),
        number,
      ).toHaveLength(1);
    }
    expect(listed.out).not.toContain(december.row.number);
    expect(lines.find((line) => line.startsWith(numbers.usdCard ?? '-'))).toMatch(
      /receipt\s+2026-11-27\s+Muster Software GmbH\s+DE\s+–\s+\$14,094\.00\s+\$2,677\.86\s+\$16,771\.86\s+€2,547\.43\s+2026-11-27$/,
    );
    expect(lines.find((line) => line.startsWith(numbers.german ?? '-'))).toMatch(
      /€2,478\.74\s+2026-11-28$/,
    );
    expect(lines.find((line) => line.startsWith(numbers.early ?? '-'))).toMatch(
      /no rate\s+2026-11-02$/,
    );
    expect(lines.find((line) => line.startsWith(numbers.american ?? '-'))).toMatch(
      /\$14,094\.00\s+€0\.00\s+unpaid$/,
    );

    const csv = await runAdminOn(t, 'documents', 'export', ...period, '--csv');
    expect(csv.code, csv.err).toBe(0);
    const [header, ...rows] = csv.out.split('\n');
    expect(header).toBe(
      'number,type,date,buyer,country,VAT ID,net,VAT,gross,currency,EUR equivalent for VAT,paid on,reference,EUR equivalent for net,EUR rate (per 1 EUR),EUR rate of',
    );
    expect(rows.map((row) => row.split(',')[0])).toEqual(inPeriod.map((row) => row.number).sort());
    // The US company's comma is quoted, not a new column.
    expect(rows.find((row) => row.startsWith(numbers.american ?? '-'))).toContain(
      ',"Example, Inc.",US,,',
    );
    expect(rows.find((row) => row.startsWith(numbers.frenchUsd ?? '-'))).toBe(
      `${numbers.frenchUsd},invoice,2026-11-27,Exemple SA,FR,FR40303265045,14094.00,0.00,14094.00,USD,0.00,,${numbers.frenchUsd},13407.53,1.0512,2026-11-26`,
    );

    // Per currency the rows add up to the totals printed, and to what the database holds.
    const totals = csv.err.split('\n').filter((line) => line.startsWith('Total '));
    expect(totals).toHaveLength(2);
    for (const currency of ['EUR', 'USD'] as const) {
      const stored = inPeriod.filter((row) => row.currency === currency);
      const own = rows
        .filter((row) => !row.includes('"'))
        .map(fields)
        .concat(
          rows.filter((row) => row.includes('"')).map((row) => fields(row.replace(/"[^"]*"/, 'x'))),
        )
        .filter((cells) => cells[9] === currency);
      expect(own).toHaveLength(stored.length);
      const sum = (column: number) =>
        own.reduce((all, cells) => all + cents(cells[column] ?? ''), 0);
      const db = (pick: (row: (typeof stored)[number]) => number) =>
        stored.reduce((all, row) => all + pick(row), 0);
      expect(sum(6)).toBe(db((row) => row.netMinor));
      expect(sum(7)).toBe(db((row) => row.vatMinor));
      expect(sum(8)).toBe(db((row) => row.grossMinor));
      expect(sum(6) + sum(7)).toBe(sum(8));
      const money = (minor: number) =>
        `${currency === 'EUR' ? '€' : '$'}${(minor / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
      expect(totals.find((line) => line.startsWith(`Total ${currency}:`))).toContain(
        `${stored.length} documents, net ${money(sum(6))}, VAT ${money(sum(7))}, gross ${money(sum(8))}`,
      );
    }
    // USD's VAT in EUR is unknown while one USD document has no rate, and says which.
    expect(totals.find((line) => line.startsWith('Total USD:'))).toContain(
      `VAT in EUR unknown (no rate: ${numbers.early})`,
    );

    // The ZIP: every PDF of the period, the same CSV and the totals.
    const zipFile = join(dir, 'books-2026-11.zip');
    const zipped = await runAdminOn(t, 'documents', 'export', ...period, '--zip', zipFile);
    expect(zipped.code, zipped.err).toBe(0);
    expect(zipped.out).toBe('');
    expect((await run('unzip', ['-t', zipFile])).stdout).toContain('No errors detected');
    const names = (await run('unzip', ['-Z1', zipFile])).stdout.split('\n').filter(Boolean);
    expect(names).toEqual([
      'documents.csv',
      'totals.csv',
      ...inPeriod.map((row) => `pdf/${row.number}.pdf`).sort(),
    ]);
    const zippedCsv = (await run('unzip', ['-p', zipFile, 'documents.csv'])).stdout;
    expect(zippedCsv).toBe(`${csv.out.split('\n').join('\r\n')}\r\n`);
    expect((await run('unzip', ['-p', zipFile, 'totals.csv'])).stdout.split('\r\n')[0]).toBe(
      'currency,documents,net,VAT,gross,EUR equivalent for VAT',
    );
    const receipt = await run('unzip', ['-p', zipFile, `pdf/${numbers.usdCard}.pdf`], {
      encoding: 'buffer',
      maxBuffer: 8 << 20,
    });
    const text = await pdfText(receipt.stdout);
    expect(text).toContain(numbers.usdCard);
    expect(text).toMatch(
      /VAT in EUR: €2,547\.43 at 1 EUR = 1\.0512 USD, ECB reference rate of\s+2026-11-26\./,
    );
  });

  it('sums the reverse-charge sales per buyer VAT ID in EUR: the EC Sales List', async () => {
    const period = ['--from', '2026-11-01', '--to', '2026-11-30'];
    const csv = await runAdminOn(t, 'documents', 'ec-sales-list', ...period, '--csv');
    expect(csv.code, csv.err).toBe(0);
    // €13,046.00 and $14,094.00 at 1.0512 (€13,407.53).
    expect(csv.out.split('\n')).toEqual([
      'country,VAT ID,net EUR,supply,documents',
      `FR,FR40303265045,26453.53,services,${numbers.french} ${numbers.frenchUsd}`,
    ]);
    const table = await runAdminOn(t, 'documents', 'ec-sales-list', ...period);
    expect(table.out).toMatch(/FR\s+FR40303265045\s+€26,453\.53\s+services/);
    const empty = await runAdminOn(
      t,
      'documents',
      'ec-sales-list',
      '--from',
      '2026-10-01',
      '--to',
      '2026-10-31',
    );
    expect(empty).toMatchObject({
      code: 0,
      out: 'No reverse-charge sales from 2026-10-01 to 2026-10-31.',
    });
  });

  it('keeps the rate a document froze when the rate is replaced later', async () => {
    const before = await runAdminOn(
      t,
      'documents',
      'export',
      '--from',
      '2026-11-27',
      '--to',
      '2026-11-27',
      '--csv',
    );
    const replaced = await runAdminOn(
      t,
      'fx-rates',
      'set',
      'USD',
      '2026-11-26',
      '1.2',
      '--replace',
    );
    expect(replaced).toMatchObject({
      code: 0,
      out: 'Replaced: 1 EUR = 1.2000 USD on 2026-11-26 (ECB).',
    });
    const after = await runAdminOn(
      t,
      'documents',
      'export',
      '--from',
      '2026-11-27',
      '--to',
      '2026-11-27',
      '--csv',
    );
    expect(after.out).toBe(before.out);
    expect(after.out).toContain(',2547.43,');
  });

  it('refuses a period that is not one, with exit code 2, a clear message and no file', async () => {
    const zipFile = join(dir, 'refused.zip');
    for (const [args, message] of [
      [[], /Name the period: --from YYYY-MM-DD --to YYYY-MM-DD \(--from is missing\)/],
      [['--from', '2026-11-01'], /--to is missing/],
      [
        ['--from', '2026-11-01', '--to', '2026-11-31'],
        /--to must be a date like 2026-11-30, got "2026-11-31"/,
      ],
      [['--from', '2026-02-29', '--to', '2026-03-31'], /--from must be a date/],
      [['--from', 'last month', '--to', '2026-11-30'], /--from must be a date/],
      [
        ['--from', '2026-11-30', '--to', '2026-11-01'],
        /--from 2026-11-30 is after --to 2026-11-01/,
      ],
      [['--from', '2025-11-01', '--to', '2026-11-30'], /longer than 366 days/],
      [['--from', '1026-11-01', '--to', '2026-11-30'], /--from must be a date/],
    ] as const) {
      for (const command of ['list', 'export', 'ec-sales-list']) {
        const extra = command === 'export' ? ['--csv', '--zip', zipFile] : [];
        const answer = await runAdminOn(t, 'documents', command, ...args, ...extra);
        expect(answer.code, `${command} ${args.join(' ')}`).toBe(2);
        expect(answer.err, `${command} ${args.join(' ')}`).toMatch(message);
        expect(answer.out).toBe('');
      }
    }
    const nothing = await runAdminOn(
      t,
      'documents',
      'export',
      '--from',
      '2026-11-01',
      '--to',
      '2026-11-30',
    );
    expect(nothing).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--csv, --zip <file>, or both/),
    });
    const noFile = await runAdminOn(
      t,
      'documents',
      'export',
      '--from',
      '2026-11-01',
      '--to',
      '2026-11-30',
      '--zip',
    );
    expect(noFile.code).toBe(2);
    await expect(access(zipFile)).rejects.toThrow();
    // A whole year is one period; an empty one says so.
    const year = await runAdminOn(
      t,
      'documents',
      'list',
      '--from',
      '2026-01-01',
      '--to',
      '2026-12-31',
    );
    expect(year.code).toBe(0);
    expect(
      (await runAdminOn(t, 'documents', 'list', '--from', '2026-10-01', '--to', '2026-10-31')).out,
    ).toBe('No documents issued from 2026-10-01 to 2026-10-31.');
  });
});
