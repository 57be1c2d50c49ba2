import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { paymentDocuments } from '#server/platform/db/schema.ts';
import { enterpriseOrder, orderAndConfirm } from '#tests/security/support/invoice-orders.ts';
import {
  consoleRequest,
  signedInOperator,
  type ConsoleTestOperator,
} from '../support/console-operator.ts';
import { databaseTargets } from '../support/databases.ts';
import { runAdminOn } from '../support/licensing.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import {
  createCheckout,
  licencesOf,
  payLocally,
  pro10YearlyEur,
  successCard,
} from './checkout-support.ts';

const listAnswer = z.object({
  month: z.string(),
  from: z.string(),
  to: z.string(),
  documents: z.array(
    z.object({
      number: z.string(),
      kind: z.enum(['invoice', 'receipt', 'credit_note']),
      issuedOn: z.string(),
      customer: z.string(),
      currency: z.string(),
      netMinor: z.number(),
      vatMinor: z.number(),
      grossMinor: z.number(),
      status: z.string(),
    }),
  ),
  totals: z.array(
    z.object({
      currency: z.string(),
      documents: z.number(),
      netMinor: z.number(),
      grossMinor: z.number(),
    }),
  ),
  totalsByKind: z.array(
    z.object({
      currency: z.string(),
      kind: z.string(),
      documents: z.number(),
      grossMinor: z.number(),
    }),
  ),
});

describe.each(databaseTargets)('documents in the console on $name', (target) => {
  let t: TestApp;
  let viewer: ConsoleTestOperator;
  let receiptNumber: string;
  let invoiceNumber: string;
  let creditNumber: string;

  beforeAll(async () => {
    t = await createTestApp(target, { now: new Date('2026-05-12T09:00:00Z') });
    viewer = await signedInOperator(t, 'viewer');
    const { sessionId } = await createCheckout(t, pro10YearlyEur);
    expect(
      (await payLocally(t, sessionId, { email: 'buyer@documents.test', card: successCard })).status,
    ).toBe(303);
    const [licence] = await licencesOf(t, 'buyer@documents.test');
    const [receipt] = await t.deps.database.db
      .select()
      .from(paymentDocuments)
      .where(eq(paymentDocuments.subscriptionId, licence?.subscriptionId ?? ''));
    receiptNumber = receipt?.number ?? '';
    invoiceNumber = (await orderAndConfirm(t, enterpriseOrder('ap@documents.test'))).invoiceNumber;
    const refunded = await runAdminOn(
      t,
      'payments',
      'refund',
      receiptNumber,
      '--amount',
      '10.00',
      '--reason',
      'Goodwill',
    );
    expect(refunded.code).toBe(0);
    creditNumber = /credit note (CN-\d{4}-\d{5})/.exec(refunded.out)?.[1] ?? '';
  });
  afterAll(() => t.close());

  it("lists the month's documents with their status and the totals per currency and kind", async () => {
    const response = await viewer.request('documents?month=2026-05');
    expect(response.status).toBe(200);
    const body = listAnswer.parse(await response.json());
    expect(body).toMatchObject({ month: '2026-05', from: '2026-05-01', to: '2026-05-31' });
    const byNumber = new Map(body.documents.map((row) => [row.number, row]));
    expect(byNumber.get(receiptNumber)).toMatchObject({
      kind: 'receipt',
      status: 'partly refunded',
    });
    expect(byNumber.get(invoiceNumber)).toMatchObject({
      kind: 'invoice',
      status: 'open',
      customer: 'Acme Holding GmbH',
    });
    // A credit note counts negative, as in the books.
    expect(byNumber.get(creditNumber)).toMatchObject({ kind: 'credit_note', grossMinor: -1_000 });
    const eur = body.totals.find((total) => total.currency === 'EUR');
    expect(eur?.documents).toBe(3);
    expect(eur?.grossMinor).toBe(body.documents.reduce((sum, row) => sum + row.grossMinor, 0));
    expect(
      body.totalsByKind.map((total) => [total.kind, total.documents, total.grossMinor]).sort(),
    ).toEqual(
      [
        ['credit_note', 1, -1_000],
        ['invoice', 1, byNumber.get(invoiceNumber)?.grossMinor],
        ['receipt', 1, byNumber.get(receiptNumber)?.grossMinor],
      ].sort(),
    );
    const empty = listAnswer.parse(await (await viewer.request('documents?month=2026-04')).json());
    expect(empty.documents).toEqual([]);
    expect(empty.totals).toEqual([]);
  });

  it('serves the CSV and the ZIP of the books, the same as `documents export`', async () => {
    const csv = await viewer.request('documents/books.csv?month=2026-05');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toBe(
      'attachment; filename="documents-2026-05.csv"',
    );
    const cli = await runAdminOn(
      t,
      'documents',
      'export',
      '--from',
      '2026-05-01',
      '--to',
      '2026-05-31',
      '--csv',
    );
    expect((await csv.text()).trimEnd().split('\r\n')).toEqual(cli.out.trimEnd().split('\n'));

    const zip = await viewer.request('documents/books.zip?month=2026-05');
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    const bytes = Buffer.from(await zip.arrayBuffer());
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    for (const name of [
      'documents.csv',
      'totals.csv',
      `pdf/${receiptNumber}.pdf`,
      `pdf/${creditNumber}.pdf`,
    ]) {
      expect(bytes.includes(Buffer.from(name)), name).toBe(true);
    }
  });

  it('opens each PDF from the list; an unknown number is 404', async () => {
    for (const number of [receiptNumber, invoiceNumber, creditNumber]) {
      const pdf = await viewer.request(`documents/${number}/pdf`);
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      expect(
        Buffer.from(await pdf.arrayBuffer())
          .subarray(0, 5)
          .toString(),
      ).toBe('%PDF-');
    }
    expect((await viewer.request('documents/INV-2026-99999/pdf')).status).toBe(404);
    expect((await viewer.request('documents/nonsense/pdf')).status).toBe(404);
  });

  it('refuses a bad month and a request without a session', async () => {
    for (const query of ['', '?month=2026-13', '?month=May', '?month=2026-05&extra=1']) {
      expect((await viewer.request(`documents${query}`)).status, query).toBe(400);
      expect((await viewer.request(`documents/books.csv${query}`)).status, query).toBe(400);
    }
    expect((await consoleRequest(t, 'documents?month=2026-05')).status).toBe(401);
    expect((await consoleRequest(t, 'documents/books.zip?month=2026-05')).status).toBe(401);
  });
});
