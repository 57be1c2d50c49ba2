import { formatCents, type Currency } from '#shared/pricing/index.ts';
import type { PaymentDocument } from './payment-document.ts';
import type { StoredPaymentDocument } from './payment-document-repository.ts';

/**
 * What the accountant asks for each month (decision 221): the period's documents as rows of
 * the books, totals per currency, and the reverse-charge sales per buyer VAT ID (the EC Sales
 * List's input). Amounts are stored positive; each kind's sign says how it counts.
 */

interface BookKind {
  /** +1 adds to the period's sales, -1 takes away (a credit note). */
  sign: 1 | -1;
  label: string;
  /** What ties the document to the money: the number a transfer quotes, the card payment's id. */
  reference(row: StoredPaymentDocument, document: PaymentDocument): string;
}

/** Every kind of document in the books. A new kind is one line here; the compiler asks for it. */
export const bookKinds = {
  invoice: { sign: 1, label: 'invoice', reference: (row) => row.number },
  receipt: { sign: 1, label: 'receipt', reference: (row) => row.providerInvoiceId },
  // Stored positive, counted negative; its reference is the document it corrects (decision 220).
  credit_note: {
    sign: -1,
    label: 'credit note',
    reference: (row) => row.creditsNumber ?? row.number,
  },
} as const satisfies Record<StoredPaymentDocument['kind'], BookKind>;

/** One document as a row of the books, amounts signed by its kind, in minor units. */
export interface BookRow {
  number: string;
  type: string;
  issuedOn: string;
  buyer: string;
  country: string;
  vatId: string;
  vatCase: PaymentDocument['vat']['case'];
  currency: Currency;
  netMinor: number;
  vatMinor: number;
  grossMinor: number;
  /** Net and VAT in euros: the figures themselves for a euro document, else at the frozen rate; null without one. */
  eurNetMinor: number | null;
  eurVatMinor: number | null;
  eurRate: string;
  eurRateOn: string;
  paidOn: string;
  reference: string;
}

/** A stored document and, for an invoice paid after it was issued, the day it was paid. */
export interface BookEntry {
  row: StoredPaymentDocument;
  document: PaymentDocument;
  paidOn: string | null;
}

export function bookRowOf(entry: BookEntry): BookRow {
  const { row, document } = entry;
  const kind: BookKind = bookKinds[row.kind];
  const signed = (minor: number) => (minor === 0 ? 0 : kind.sign * minor);
  const inEuro = document.currency === 'EUR';
  const eur = inEuro ? null : (document.eur ?? null);
  return {
    number: document.number,
    type: kind.label,
    issuedOn: document.issuedOn,
    buyer: document.buyer.companyName ?? document.buyer.email,
    country: document.buyer.country,
    vatId: document.buyer.vatId ?? '',
    vatCase: document.vat.case,
    currency: document.currency,
    netMinor: signed(document.netMinor),
    vatMinor: signed(document.vatMinor),
    grossMinor: signed(document.grossMinor),
    eurNetMinor: inEuro ? signed(document.netMinor) : eur ? signed(eur.netMinor) : null,
    eurVatMinor: inEuro ? signed(document.vatMinor) : eur ? signed(eur.vatMinor) : null,
    eurRate: eur?.perEur ?? '',
    eurRateOn: eur?.rateOn ?? '',
    paidOn: ('paidOn' in document.payment ? document.payment.paidOn : null) ?? entry.paidOn ?? '',
    reference: kind.reference(row, document),
  };
}

export interface CurrencyTotal {
  currency: Currency;
  documents: number;
  netMinor: number;
  vatMinor: number;
  grossMinor: number;
  /** The VAT in euros; null when a document of the currency has no rate (`missingEur` names them). */
  eurVatMinor: number | null;
  missingEur: string[];
}

/** Totals per currency (in the order first seen), each the plain sum of its rows. */
export function totalsByCurrency(rows: readonly BookRow[]): CurrencyTotal[] {
  const totals = new Map<Currency, CurrencyTotal>();
  for (const row of rows) {
    const total = totals.get(row.currency) ?? {
      currency: row.currency,
      documents: 0,
      netMinor: 0,
      vatMinor: 0,
      grossMinor: 0,
      eurVatMinor: 0,
      missingEur: [],
    };
    total.documents += 1;
    total.netMinor += row.netMinor;
    total.vatMinor += row.vatMinor;
    total.grossMinor += row.grossMinor;
    if (row.eurVatMinor === null) total.missingEur.push(row.number);
    else if (total.eurVatMinor !== null) total.eurVatMinor += row.eurVatMinor;
    if (total.missingEur.length > 0) total.eurVatMinor = null;
    totals.set(row.currency, total);
  }
  return [...totals.values()];
}

/** One line of the EC Sales List: a buyer VAT ID's reverse-charge sales of the period, in euros. */
export interface EcSalesLine {
  country: string;
  vatId: string;
  eurNetMinor: number;
  documents: string[];
}

/**
 * The reverse-charge sales of `rows` summed per buyer VAT ID in euros (net; a credit note
 * subtracts). Documents without a euro amount cannot be summed: they are returned in `missing`.
 */
export function ecSalesList(rows: readonly BookRow[]): { lines: EcSalesLine[]; missing: string[] } {
  const lines = new Map<string, EcSalesLine>();
  const missing: string[] = [];
  for (const row of rows) {
    if (row.vatCase !== 'reverse-charge') continue;
    if (row.eurNetMinor === null) {
      missing.push(row.number);
      continue;
    }
    const line = lines.get(row.vatId) ?? {
      country: row.vatId.slice(0, 2),
      vatId: row.vatId,
      eurNetMinor: 0,
      documents: [],
    };
    line.eurNetMinor += row.eurNetMinor;
    line.documents.push(row.number);
    lines.set(row.vatId, line);
  }
  return {
    lines: [...lines.values()].sort((a, b) => a.vatId.localeCompare(b.vatId)),
    missing,
  };
}

/** Minor units as a plain decimal for a spreadsheet: `-130460` → `-1304.60`. */
export function decimal(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line break. Text that a
 * spreadsheet would run as a formula (`=`, `+`, `-`, `@` first: a buyer may name their company
 * so) is prefixed with an apostrophe; amounts are written by `decimal` and never pass here.
 */
export function csvText(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export const BOOK_COLUMNS = [
  'number',
  'type',
  'date',
  'buyer',
  'country',
  'VAT ID',
  'net',
  'VAT',
  'gross',
  'currency',
  'EUR equivalent for VAT',
  'paid on',
  'reference',
  'EUR equivalent for net',
  'EUR rate (per 1 EUR)',
  'EUR rate of',
] as const;

/** The rows as CSV lines, the header first. */
export function bookCsvLines(rows: readonly BookRow[]): string[] {
  return [
    BOOK_COLUMNS.map(csvText).join(','),
    ...rows.map((row) =>
      [
        csvText(row.number),
        csvText(row.type),
        row.issuedOn,
        csvText(row.buyer),
        csvText(row.country),
        csvText(row.vatId),
        decimal(row.netMinor),
        decimal(row.vatMinor),
        decimal(row.grossMinor),
        row.currency,
        row.eurVatMinor === null ? 'no rate' : decimal(row.eurVatMinor),
        row.paidOn,
        csvText(row.reference),
        row.eurNetMinor === null ? 'no rate' : decimal(row.eurNetMinor),
        row.eurRate,
        row.eurRateOn,
      ].join(','),
    ),
  ];
}

/** The totals as CSV lines, the header first. */
export function totalsCsvLines(totals: readonly CurrencyTotal[]): string[] {
  return [
    'currency,documents,net,VAT,gross,EUR equivalent for VAT',
    ...totals.map((total) =>
      [
        total.currency,
        String(total.documents),
        decimal(total.netMinor),
        decimal(total.vatMinor),
        decimal(total.grossMinor),
        total.eurVatMinor === null ? 'no rate' : decimal(total.eurVatMinor),
      ].join(','),
    ),
  ];
}

/** The EC Sales List as CSV lines: country, VAT ID, net in EUR, the kind of supply, the documents. */
export function ecSalesCsvLines(lines: readonly EcSalesLine[]): string[] {
  return [
    'country,VAT ID,net EUR,supply,documents',
    ...lines.map((line) =>
      [
        csvText(line.country),
        csvText(line.vatId),
        decimal(line.eurNetMinor),
        'services',
        csvText(line.documents.join(' ')),
      ].join(','),
    ),
  ];
}

/** A total as the terminal shows it: `USD: 3 documents, net $1.00, VAT $0.19, gross $1.19, VAT in EUR €0.18`. */
export function totalText(total: CurrencyTotal): string {
  const money = (minor: number) => formatCents(minor, total.currency);
  const eurVat =
    total.eurVatMinor === null
      ? `VAT in EUR unknown (no rate: ${total.missingEur.join(', ')})`
      : `VAT in EUR ${formatCents(total.eurVatMinor, 'EUR')}`;
  return `${total.currency}: ${total.documents} document${total.documents === 1 ? '' : 's'}, net ${money(total.netMinor)}, VAT ${money(total.vatMinor)}, gross ${money(total.grossMinor)}, ${eurVat}`;
}
