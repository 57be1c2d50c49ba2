import { Hono } from 'hono';
import { z } from 'zod';
import { CONSOLE_API } from '#shared/contracts/console.ts';
import {
  consoleDeniedResponses,
  errorBodySchema,
  invalidRequestErrorSchema,
  noQueryParameters,
} from '#server/platform/api-doc/common-errors.ts';
import { defineRoute, defineRoutes } from '#server/platform/api-doc/define-route.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import type { ServicePorts } from '#server/platform/ports/service-ports.ts';
import { totalsByCurrency } from './document-books.ts';
import { documentAsOfNow } from './document-standing.ts';
import { parseDocumentNumber } from './payment-document.ts';
import { createPaymentDocumentRepository } from './payment-document-repository.ts';
import { booksCsv, booksZip, readBooks, standingsOf, type Period } from './read-document-books.ts';

const tag = 'Operator console';
const denied = consoleDeniedResponses;

/** A month of issue days, `YYYY-MM`. */
const monthQuery = z.strictObject({
  month: z
    .string('Name the month: month=YYYY-MM')
    .regex(/^(19|20)\d\d-(0[1-9]|1[0-2])$/, 'Name the month: month=YYYY-MM'),
});

function periodOfMonth(month: string): Period {
  const [year, number] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(year, number, 0)).getUTCDate();
  return { from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}` };
}

const listRoute = defineRoute({
  method: 'get',
  path: `${CONSOLE_API}/documents`,
  auth: { permission: 'billing.read' },
  operationId: 'listDocumentsOfMonth',
  tag,
  summary: "A month's invoices, receipts and credit notes, with totals per currency and kind",
  request: { query: monthQuery },
  responses: {
    200: { description: 'The documents in number order, and the totals.', schema: z.unknown() },
    400: { description: 'No month, or not YYYY-MM.', schema: invalidRequestErrorSchema },
    ...denied,
  },
});

const csvRoute = defineRoute({
  method: 'get',
  path: `${CONSOLE_API}/documents/books.csv`,
  auth: { permission: 'billing.read' },
  operationId: 'exportDocumentsCsv',
  tag,
  summary: "The month's books as CSV (documents export --csv, decision 221)",
  request: { query: monthQuery },
  responses: {
    200: { description: 'text/csv, one row per document.', schema: z.string() },
    400: { description: 'No month, or not YYYY-MM.', schema: invalidRequestErrorSchema },
    ...denied,
  },
});

const zipRoute = defineRoute({
  method: 'get',
  path: `${CONSOLE_API}/documents/books.zip`,
  auth: { permission: 'billing.read' },
  operationId: 'exportDocumentsZip',
  tag,
  summary: "The month's PDFs, documents.csv and totals.csv in a ZIP (documents export --zip)",
  request: { query: monthQuery },
  responses: {
    200: { description: 'application/zip.', schema: z.string() },
    400: { description: 'No month, or not YYYY-MM.', schema: invalidRequestErrorSchema },
    ...denied,
  },
});

const pdfRoute = defineRoute({
  method: 'get',
  path: `${CONSOLE_API}/documents/:number/pdf`,
  auth: { permission: 'billing.read' },
  operationId: 'readDocumentPdf',
  tag,
  summary: 'An invoice, receipt or credit note as its PDF, as it stands now',
  responses: {
    200: { description: 'application/pdf.', schema: z.string() },
    404: { description: 'DocumentNotFound.', schema: errorBodySchema },
    ...denied,
  },
});

function attachment(name: string): string {
  return `attachment; filename="${name}"`;
}

/** The month's documents and the accountant's exports in the console (decision 233). */
export const documentConsoleRoutes = defineRoutes(
  [listRoute, csvRoute, zipRoute, pdfRoute],
  (deps: ServicePorts) => {
    const app = new Hono<AppEnv>();
    const db = deps.database.db;

    listRoute.handle(app, async (c, input) => {
      const query = input.query();
      if (!query.ok) return query.response;
      const period = periodOfMonth(query.value.month);
      const books = await readBooks(db, period);
      const standings = await standingsOf(db, books);
      const rows = books.map((entry) => entry.row);
      const byKind = new Map<
        string,
        {
          currency: string;
          kind: string;
          documents: number;
          netMinor: number;
          vatMinor: number;
          grossMinor: number;
        }
      >();
      for (const { row, stored } of books) {
        const key = `${row.currency}:${stored.kind}`;
        const total = byKind.get(key) ?? {
          currency: row.currency,
          kind: stored.kind,
          documents: 0,
          netMinor: 0,
          vatMinor: 0,
          grossMinor: 0,
        };
        total.documents += 1;
        total.netMinor += row.netMinor;
        total.vatMinor += row.vatMinor;
        total.grossMinor += row.grossMinor;
        byKind.set(key, total);
      }
      return c.json({
        month: query.value.month,
        ...period,
        documents: books.map(({ row, stored }) => ({
          number: row.number,
          kind: stored.kind,
          issuedOn: row.issuedOn,
          customer: row.buyer,
          email: stored.buyerEmail,
          currency: row.currency,
          netMinor: row.netMinor,
          vatMinor: row.vatMinor,
          grossMinor: row.grossMinor,
          status: standings.get(row.number) ?? 'issued',
          paidOn: row.paidOn || null,
          reference: row.reference,
        })),
        totals: totalsByCurrency(rows),
        totalsByKind: [...byKind.values()],
      });
    });

    csvRoute.handle(app, async (c, input) => {
      const query = input.query();
      if (!query.ok) return query.response;
      const books = await readBooks(db, periodOfMonth(query.value.month));
      c.header('Content-Type', 'text/csv; charset=utf-8');
      c.header('Content-Disposition', attachment(`documents-${query.value.month}.csv`));
      return c.body(booksCsv(books), 200);
    });

    zipRoute.handle(app, async (c, input) => {
      const query = input.query();
      if (!query.ok) return query.response;
      const books = await readBooks(db, periodOfMonth(query.value.month));
      const zip = await booksZip(books, deps.clock());
      c.header('Content-Type', 'application/zip');
      c.header('Content-Disposition', attachment(`books-${query.value.month}.zip`));
      return c.body(new Uint8Array(zip), 200);
    });

    pdfRoute.handle(app, noQueryParameters, async (c) => {
      const number = c.req.param('number');
      const row = parseDocumentNumber(number)
        ? await createPaymentDocumentRepository(db).findByNumber(number)
        : undefined;
      if (!row) {
        return c.json({ Error: 'DocumentNotFound', message: `No document ${number}.` }, 404);
      }
      // pdfkit and the fonts load with the first document only (decision 135).
      const { renderPaymentDocumentPdf } = await import('./render-payment-document-pdf.ts');
      const pdf = await renderPaymentDocumentPdf(documentAsOfNow(row));
      c.header('Content-Type', 'application/pdf');
      c.header('Content-Disposition', `inline; filename="${row.number}.pdf"`);
      return c.body(new Uint8Array(pdf), 200);
    });

    return app;
  },
);
