import { describe, expect, it } from 'vitest';
import {
  bookCsvLines,
  bookKinds,
  bookRowOf,
  csvText,
  decimal,
  ecSalesCsvLines,
  ecSalesList,
  totalsByCurrency,
  totalsCsvLines,
  type BookRow,
} from './document-books.ts';
import { buildPaymentDocument, type DocumentablePayment } from './payment-document.ts';
import type { StoredPaymentDocument } from './payment-document-repository.ts';

const now = new Date('2026-11-27T10:00:00Z');
const usdRate = { currency: 'USD', rateOn: '2026-11-26', perEur: '1.0512', source: 'ECB' };

function payment(
  over: Omit<Partial<DocumentablePayment>, 'buyer'> & {
    buyer?: Partial<DocumentablePayment['buyer']>;
  },
): DocumentablePayment {
  const base: DocumentablePayment = {
    invoiceId: 'lin_1',
    kind: 'invoice',
    issuedAt: now,
    paidAt: null,
    dueAt: new Date('2026-12-27T10:00:00Z'),
    currency: 'EUR',
    netMinor: 1_304_600,
    description: 'Orgsmith Pro, 10 orgs, billed yearly',
    periodStart: now,
    periodEnd: new Date('2027-11-27T10:00:00Z'),
    buyer: {
      email: 'ap@example.test',
      companyName: 'Beispiel GmbH',
      address: 'Hauptstraße 1, 10115 Berlin',
      country: 'DE',
      vatId: null,
      vatIdConfirmation: null,
    },
    poReference: null,
    quoteReference: null,
  };
  return { ...base, ...over, buyer: { ...base.buyer, ...over.buyer } };
}

let sequence = 0;
/** A document as stored, built by the code that issues them. */
function entry(paid: DocumentablePayment, paidOn: string | null = null) {
  sequence += 1;
  const number = `INV-2026-${String(sequence).padStart(5, '0')}`;
  const document = buildPaymentDocument({
    payment: paid,
    number,
    now,
    publicBaseUrl: 'http://localhost:3000',
    eurRate: usdRate,
    bankAccounts: {},
  });
  const row: StoredPaymentDocument = {
    number,
    year: 2026,
    sequence,
    kind: document.kind,
    provider: 'local',
    providerInvoiceId: paid.invoiceId,
    subscriptionId: 'lsub_1',
    buyerEmail: paid.buyer.email,
    buyerEmailNormalized: paid.buyer.email,
    issuedOn: document.issuedOn,
    currency: document.currency,
    netMinor: document.netMinor,
    vatRatePercent: document.vat.ratePercent,
    vatMinor: document.vatMinor,
    grossMinor: document.grossMinor,
    document,
    createdAt: now,
    creditsNumber: null,
    paidAt: null,
    idempotencyKey: null,
  };
  return { row, document, paidOn };
}

const confirmation = {
  vatId: 'FR40303265045',
  by: 'vies' as const,
  confirmedOn: '2026-11-27',
  consultationNumber: 'WAPIAAAAW1234567',
  name: 'EXEMPLE SA',
  address: '1 RUE DE RIVOLI',
};

describe('the books of a period', () => {
  const german = entry(payment({}), '2026-11-28');
  const french = entry(
    payment({
      invoiceId: 'lin_2',
      buyer: {
        companyName: 'Exemple SA',
        country: 'FR',
        vatId: 'FR40303265045',
        vatIdConfirmation: confirmation,
      },
    }),
  );
  const frenchUsd = entry(
    payment({
      invoiceId: 'lin_3',
      currency: 'USD',
      netMinor: 105_120,
      buyer: {
        companyName: 'Exemple SA',
        country: 'FR',
        vatId: 'FR40303265045',
        vatIdConfirmation: confirmation,
      },
    }),
  );
  const cardUsd = entry(
    payment({
      invoiceId: 'lch_4',
      kind: 'receipt',
      paidAt: now,
      dueAt: null,
      currency: 'USD',
      netMinor: 1_304_600,
      buyer: { companyName: null, address: null, country: null },
    }),
  );
  const american = entry(
    payment({
      invoiceId: 'lin_5',
      currency: 'USD',
      netMinor: 1_409_400,
      buyer: { companyName: 'Example Inc.', country: 'US' },
    }),
  );
  const rows = [german, french, frenchUsd, cardUsd, american].map(bookRowOf);

  it('gives each document one row: signed amounts, VAT in EUR, paid on and reference', () => {
    expect(rows[0]).toMatchObject({
      type: 'invoice',
      buyer: 'Beispiel GmbH',
      country: 'DE',
      netMinor: 1_304_600,
      vatMinor: 247_874,
      grossMinor: 1_552_474,
      eurVatMinor: 247_874,
      eurNetMinor: 1_304_600,
      paidOn: '2026-11-28',
      reference: german.row.number,
    });
    // A card receipt: paid when issued, referenced by the payment's id; its VAT at the frozen rate.
    expect(rows[3]).toMatchObject({
      type: 'receipt',
      buyer: 'ap@example.test',
      currency: 'USD',
      vatMinor: 247_874,
      eurVatMinor: 235_801,
      eurRate: '1.0512',
      eurRateOn: '2026-11-26',
      paidOn: '2026-11-27',
      reference: 'lch_4',
    });
    expect(rows[2]).toMatchObject({ vatCase: 'reverse-charge', vatMinor: 0, eurNetMinor: 100_000 });
    expect(rows[4]).toMatchObject({ vatCase: 'outside-eu', vatId: '', paidOn: '' });
  });

  it('sums each currency to exactly its rows, and net plus VAT is gross in every total', () => {
    const totals = totalsByCurrency(rows);
    expect(totals.map((total) => total.currency)).toEqual(['EUR', 'USD']);
    for (const total of totals) {
      const own = rows.filter((row) => row.currency === total.currency);
      const sum = (pick: (row: BookRow) => number) => own.reduce((all, row) => all + pick(row), 0);
      expect(total.documents).toBe(own.length);
      expect(total.netMinor).toBe(sum((row) => row.netMinor));
      expect(total.vatMinor).toBe(sum((row) => row.vatMinor));
      expect(total.grossMinor).toBe(sum((row) => row.grossMinor));
      expect(total.netMinor + total.vatMinor).toBe(total.grossMinor);
    }
    expect(totals[1]).toMatchObject({
      netMinor: 105_120 + 1_304_600 + 1_409_400,
      eurVatMinor: 235_801,
      missingEur: [],
    });
  });

  it('counts a kind by its sign: a credit note (sign −1) takes its amounts away', () => {
    expect(Object.values(bookKinds).map((kind) => kind.sign)).toEqual([1, 1, -1]);
    const credit = { ...bookKinds.invoice, sign: -1 as const };
    const original = bookKinds.invoice;
    Object.assign(bookKinds, { invoice: credit });
    try {
      const negative = bookRowOf(german);
      expect(negative).toMatchObject({
        netMinor: -1_304_600,
        vatMinor: -247_874,
        grossMinor: -1_552_474,
        eurVatMinor: -247_874,
      });
      const [total] = totalsByCurrency([rows[0] as BookRow, negative]);
      expect(total).toMatchObject({ netMinor: 0, vatMinor: 0, grossMinor: 0, eurVatMinor: 0 });
    } finally {
      Object.assign(bookKinds, { invoice: original });
    }
  });

  it('marks a document without a rate, and its currency’s VAT in EUR as unknown', () => {
    const noRate = { ...cardUsd, document: { ...cardUsd.document, eur: null } };
    const row = bookRowOf(noRate);
    expect(row.eurVatMinor).toBeNull();
    const [usd] = totalsByCurrency([rows[3] as BookRow, row]);
    expect(usd).toMatchObject({ eurVatMinor: null, missingEur: [cardUsd.row.number] });
    expect(bookCsvLines([row])[1]).toContain(',no rate,');
  });

  it('sums the reverse-charge sales per buyer VAT ID in EUR (the EC Sales List)', () => {
    const { lines, missing } = ecSalesList(rows);
    expect(missing).toEqual([]);
    expect(lines).toEqual([
      {
        country: 'FR',
        vatId: 'FR40303265045',
        eurNetMinor: 1_304_600 + 100_000,
        documents: [french.row.number, frenchUsd.row.number],
      },
    ]);
    expect(ecSalesCsvLines(lines)).toEqual([
      'country,VAT ID,net EUR,supply,documents',
      `FR,FR40303265045,14046.00,services,${french.row.number} ${frenchUsd.row.number}`,
    ]);
    const unconverted = bookRowOf({ ...frenchUsd, document: { ...frenchUsd.document, eur: null } });
    expect(ecSalesList([unconverted]).missing).toEqual([frenchUsd.row.number]);
  });

  it('writes the CSV with the columns the accountant asked for, amounts as plain decimals', () => {
    const lines = bookCsvLines(rows);
    expect(lines[0]).toBe(
      'number,type,date,buyer,country,VAT ID,net,VAT,gross,currency,EUR equivalent for VAT,paid on,reference,EUR equivalent for net,EUR rate (per 1 EUR),EUR rate of',
    );
    expect(lines[1]).toBe(
      `${german.row.number},invoice,2026-11-27,Beispiel GmbH,DE,,13046.00,2478.74,15524.74,EUR,2478.74,2026-11-28,${german.row.number},13046.00,,`,
    );
    expect(lines[4]).toBe(
      `${cardUsd.row.number},receipt,2026-11-27,ap@example.test,DE,,13046.00,2478.74,15524.74,USD,2358.01,2026-11-27,lch_4,12410.58,1.0512,2026-11-26`,
    );
    expect(totalsCsvLines(totalsByCurrency(rows))).toEqual([
      'currency,documents,net,VAT,gross,EUR equivalent for VAT',
      'EUR,2,26092.00,2478.74,28570.74,2478.74',
      'USD,3,28191.20,2478.74,30669.94,2358.01',
    ]);
  });

  it('quotes what needs quoting and never lets a buyer’s name become a formula', () => {
    expect(csvText('Exemple, SA')).toBe('"Exemple, SA"');
    expect(csvText('The "Best" Ltd')).toBe('"The ""Best"" Ltd"');
    expect(csvText('=HYPERLINK("http://evil.example","x")')).toBe(
      `"'=HYPERLINK(""http://evil.example"",""x"")"`,
    );
    expect(csvText('+49 30')).toBe("'+49 30");
    expect(csvText('-2')).toBe("'-2");
    expect(csvText('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvText('line\nbreak')).toBe('"line\nbreak"');
    expect(decimal(-130_460)).toBe('-1304.60');
    expect(decimal(5)).toBe('0.05');
    expect(decimal(0)).toBe('0.00');
  });
});
