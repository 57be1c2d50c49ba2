import { calendarDateIn } from '#server/billing/calendar-date.ts';
import { zipArchive, type ZipEntry } from '#server/platform/archive/zip-archive.ts';
import type { Executor } from '#server/platform/db/database.ts';
import { siteConfig } from '#shared/site-config.ts';
import {
  bookCsvLines,
  bookRowOf,
  totalsByCurrency,
  totalsCsvLines,
  type BookRow,
} from './document-books.ts';
import { documentStanding, type DocumentStatus } from './document-standing.ts';
import { paymentDocumentSchema, type PaymentDocument } from './payment-document.ts';
import {
  createPaymentDocumentRepository,
  type StoredPaymentDocument,
} from './payment-document-repository.ts';

/** A period of issue days, both included. */
export interface Period {
  from: string;
  to: string;
}

export interface BooksEntry {
  document: PaymentDocument;
  row: BookRow;
  stored: StoredPaymentDocument;
}

/** The period's documents as rows of the books, in number order (decision 221). */
export async function readBooks(db: Executor, period: Period): Promise<BooksEntry[]> {
  const entries = await createPaymentDocumentRepository(db).listIssuedBetween(
    period.from,
    period.to,
  );
  const timeZone = siteConfig.company.timeZone;
  return entries.map(({ row, paidAt }) => {
    const document = paymentDocumentSchema.parse(row.document);
    return {
      document,
      stored: row,
      row: bookRowOf({ row, document, paidOn: paidAt ? calendarDateIn(paidAt, timeZone) : null }),
    };
  });
}

/** Where each document stands now (paid, open, refunded…), its credit notes of any period counted. */
export async function standingsOf(
  db: Executor,
  books: readonly BooksEntry[],
): Promise<Map<string, DocumentStatus>> {
  const numbers = books
    .filter((entry) => entry.stored.kind !== 'credit_note')
    .map((entry) => entry.stored.number);
  const notes = await createPaymentDocumentRepository(db).creditNotesOfEach(numbers);
  return new Map(
    books.map((entry) => [
      entry.stored.number,
      documentStanding(
        entry.stored,
        notes.filter((note) => note.creditsNumber === entry.stored.number),
      ).status,
    ]),
  );
}

/** The books' CSV (documents.csv): one row per document, CRLF line ends. */
export function booksCsv(books: readonly BooksEntry[]): string {
  return `${bookCsvLines(books.map((entry) => entry.row)).join('\r\n')}\r\n`;
}

/** The accountant's ZIP: every PDF, documents.csv and totals.csv. */
export async function booksZip(books: readonly BooksEntry[], now: Date): Promise<Buffer> {
  const { renderPaymentDocumentPdf } = await import('./render-payment-document-pdf.ts');
  const totals = totalsByCurrency(books.map((entry) => entry.row));
  const entries: ZipEntry[] = [
    { name: 'documents.csv', bytes: Buffer.from(booksCsv(books)) },
    { name: 'totals.csv', bytes: Buffer.from(`${totalsCsvLines(totals).join('\r\n')}\r\n`) },
  ];
  for (const { document } of books) {
    entries.push({
      name: `pdf/${document.number}.pdf`,
      bytes: await renderPaymentDocumentPdf(document),
    });
  }
  return zipArchive(entries, now);
}
