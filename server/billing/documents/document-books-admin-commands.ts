import { daysBetween, isCalendarDate } from '#server/billing/calendar-date.ts';
import {
  AdminError,
  EXIT_OK,
  type AdminCommand,
  type AdminContext,
  type CommandSettings,
} from '#server/platform/commands/command.ts';
import { printTable } from '#server/platform/commands/command-io.ts';
import { formatCents } from '#shared/pricing/index.ts';
import {
  bookCsvLines,
  ecSalesCsvLines,
  ecSalesList,
  totalsByCurrency,
  totalText,
} from './document-books.ts';
import { booksZip, readBooks, type Period } from './read-document-books.ts';

/** A period of at most this many days: a year, the longest an accountant closes at once. */
export const MAX_PERIOD_DAYS = 366;

/** The ZIP's size limit: what an admin command may write through the socket (decision 190). */
const MAX_ZIP_BYTES = 16 * 1024 * 1024;

export type { Period };

/** `--from` and `--to` as a period: real days, from ≤ to, at most a year; usage errors (2) otherwise. */
export function periodOf(options: Record<string, string | boolean | undefined>): Period {
  const day = (name: 'from' | 'to'): string => {
    const value = options[name];
    if (value === undefined || value === true) {
      throw new AdminError(
        `Name the period: --from YYYY-MM-DD --to YYYY-MM-DD (--${name} is missing).`,
        2,
      );
    }
    if (typeof value !== 'string' || !isCalendarDate(value)) {
      throw new AdminError(`--${name} must be a date like 2026-11-30, got "${String(value)}".`, 2);
    }
    return value;
  };
  const from = day('from');
  const to = day('to');
  if (from > to) throw new AdminError(`--from ${from} is after --to ${to}.`, 2);
  if (daysBetween(from, to) + 1 > MAX_PERIOD_DAYS) {
    throw new AdminError(
      `The period ${from} to ${to} is longer than ${MAX_PERIOD_DAYS} days: export a year or less at a time.`,
      2,
    );
  }
  return { from, to };
}

const periodOptions = {
  from: { type: 'string', description: 'First issue day (YYYY-MM-DD), included' },
  to: { type: 'string', description: 'Last issue day (YYYY-MM-DD), included' },
} as const;

/** The period's documents as rows of the books, in number order. */
async function booksOf(context: AdminContext, period: Period) {
  return readBooks(await context.database(), period);
}

const list: AdminCommand = {
  name: 'documents list',
  summary: 'List the invoices and receipts issued in a period, with totals per currency',
  details: [
    'Every document issued from --from to --to (issue dates, both included; at most 366 days),',
    'in number order, with net, VAT and gross as they count in the books, the VAT in EUR and',
    'the day it was paid; then the totals per currency (decision 221).',
  ].join('\n'),
  options: { ...periodOptions, json: { type: 'boolean', description: 'Print JSON' } },
  async run(context, { options }) {
    const period = periodOf(options);
    const rows = (await booksOf(context, period)).map((entry) => entry.row);
    if (options.json === true) {
      context.io.out(
        JSON.stringify({ ...period, documents: rows, totals: totalsByCurrency(rows) }, null, 2),
      );
      return EXIT_OK;
    }
    if (rows.length === 0) {
      context.io.out(`No documents issued from ${period.from} to ${period.to}.`);
      return EXIT_OK;
    }
    printTable(
      context,
      [
        'NUMBER',
        'TYPE',
        'DATE',
        'BUYER',
        'COUNTRY',
        'VAT ID',
        'NET',
        'VAT',
        'GROSS',
        'VAT IN EUR',
        'PAID ON',
      ],
      rows.map((row) => [
        row.number,
        row.type,
        row.issuedOn,
        row.buyer,
        row.country,
        row.vatId || '–',
        formatCents(row.netMinor, row.currency),
        formatCents(row.vatMinor, row.currency),
        formatCents(row.grossMinor, row.currency),
        row.eurVatMinor === null ? 'no rate' : formatCents(row.eurVatMinor, 'EUR'),
        row.paidOn || 'unpaid',
      ]),
    );
    context.io.out('');
    for (const total of totalsByCurrency(rows)) context.io.out(`Total ${totalText(total)}`);
    return EXIT_OK;
  },
};

const exportBooks: AdminCommand = {
  name: 'documents export',
  summary:
    "Export a period's documents: --csv prints the CSV, --zip <file> writes the PDFs and CSVs",
  details: [
    'The documents issued from --from to --to (at most 366 days) as CSV, one row each: number,',
    'type, date, buyer, country, VAT ID, net, VAT, gross, currency, EUR equivalent for VAT, paid',
    'on, reference, then the EUR equivalent for net and the rate used. Amounts are decimals with a',
    'point; a credit note counts negative. --csv prints the rows (the totals per currency go to',
    'stderr); --zip <file> writes a ZIP of every PDF, documents.csv and totals.csv (0600).',
  ].join('\n'),
  options: {
    ...periodOptions,
    csv: { type: 'boolean', description: 'Print the CSV' },
    zip: { type: 'string', description: 'Write the PDFs and CSV files to this ZIP file' },
  },
  async run(context, { options }) {
    const period = periodOf(options);
    if (options.csv !== true && options.zip === undefined) {
      throw new AdminError('Say what to export: --csv, --zip <file>, or both.', 2);
    }
    if (options.zip !== undefined && (typeof options.zip !== 'string' || options.zip === '')) {
      throw new AdminError('--zip needs a file name, e.g. --zip books-2026-11.zip.', 2);
    }
    const books = await booksOf(context, period);
    const rows = books.map((entry) => entry.row);
    const csv = bookCsvLines(rows);
    const totals = totalsByCurrency(rows);
    if (typeof options.zip === 'string') {
      const zip = await booksZip(books, context.now());
      if (zip.byteLength > MAX_ZIP_BYTES) {
        throw new AdminError(
          `The ZIP of ${books.length} documents would be ${(zip.byteLength / 1024 / 1024).toFixed(1)} MiB, over the 16 MiB a command may write: export a shorter period.`,
        );
      }
      const path = context.resolvePath(options.zip);
      await context.files.write(path, zip);
      context.io.err(
        `ZIP of ${books.length} PDF${books.length === 1 ? '' : 's'}, documents.csv and totals.csv written to ${path}`,
      );
    }
    if (options.csv === true) for (const line of csv) context.io.out(line);
    for (const total of totals) context.io.err(`Total ${totalText(total)}`);
    if (rows.length === 0)
      context.io.err(`No documents issued from ${period.from} to ${period.to}.`);
    return EXIT_OK;
  },
};

const ecSales: AdminCommand = {
  name: 'documents ec-sales-list',
  summary: "The period's reverse-charge sales per buyer VAT ID in EUR (the EC Sales List's input)",
  details: [
    'Sums the net of every reverse-charge document issued from --from to --to per buyer VAT ID,',
    'in EUR (a document in USD at the rate it froze when issued; a credit note subtracts). A',
    'document without a rate cannot be summed: it is named and the exit code is 1.',
  ].join('\n'),
  options: {
    ...periodOptions,
    csv: { type: 'boolean', description: 'Print CSV instead of a table' },
  },
  async run(context, { options }) {
    const period = periodOf(options);
    const { lines, missing } = ecSalesList(
      (await booksOf(context, period)).map((entry) => entry.row),
    );
    if (options.csv === true) {
      for (const line of ecSalesCsvLines(lines)) context.io.out(line);
    } else if (lines.length === 0) {
      context.io.out(`No reverse-charge sales from ${period.from} to ${period.to}.`);
    } else {
      printTable(
        context,
        ['COUNTRY', 'VAT ID', 'NET (EUR)', 'SUPPLY', 'DOCUMENTS'],
        lines.map((line) => [
          line.country,
          line.vatId,
          formatCents(line.eurNetMinor, 'EUR'),
          'services',
          line.documents.join(' '),
        ]),
      );
    }
    if (missing.length > 0) {
      context.io.err(
        `Not summed, no rate to the euro recorded when issued: ${missing.join(', ')}. Convert them by hand at the ECB rate of their issue date.`,
      );
      return 1;
    }
    return EXIT_OK;
  },
};

/** The accountant's commands (decision 221), listed by the documents' manifest. */
export const documentBooksAdminCommands: readonly AdminCommand<CommandSettings>[] = [
  list,
  exportBooks,
  ecSales,
];
