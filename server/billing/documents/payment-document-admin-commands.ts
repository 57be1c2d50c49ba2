import {
  AdminError,
  EXIT_OK,
  type AdminCommand,
  type CommandSettings,
} from '#server/platform/commands/command.ts';
import { formatCents } from '#shared/pricing/index.ts';
import { positiveInteger, printTable, secretKeyOf } from '#server/platform/commands/command-io.ts';
import { documentAsOfNow, documentStanding, type DocumentStanding } from './document-standing.ts';
import { paymentDocumentUrl } from './payment-document-link.ts';
import { documentNoun, parseDocumentNumber, type PaymentDocument } from './payment-document.ts';
import { createPaymentDocumentRepository } from './payment-document-repository.ts';
import { findPaymentDocumentStanding } from './read-payment-document.ts';

interface DocumentCommandSettings extends CommandSettings {
  PUBLIC_BASE_URL: string;
}

/** Where a document stands, in one line: `paid on …`, `open: €… owed by …`, `credited by CN-…`. */
function statusLine(
  document: PaymentDocument,
  standing: DocumentStanding,
  money: (minor: number) => string,
): string {
  const notes = standing.creditNotes.length > 0 ? ` (${standing.creditNotes.join(', ')})` : '';
  switch (standing.status) {
    case 'issued':
      return document.credits
        ? `credit note of ${document.credits.kind} ${document.credits.number}`
        : 'credit note';
    case 'open':
      return `unpaid: ${money(standing.owedMinor)} owed${document.payment.method === 'bank-transfer' ? ` by ${document.payment.dueOn}` : ''}${standing.creditedMinor > 0 ? `, ${money(standing.creditedMinor)} credited${notes}` : ''}`;
    case 'paid':
      return `paid on ${standing.paidOn ?? '–'}`;
    case 'partly refunded':
      return `paid on ${standing.paidOn ?? '–'}, ${money(standing.creditedMinor)} refunded${notes}`;
    case 'refunded':
      return `paid on ${standing.paidOn ?? '–'}, refunded in full${notes}`;
    case 'credited':
      return `cancelled: credited in full${notes}, nothing owed`;
  }
}

/** How the money moved, as the document says it. */
function paymentLine(document: PaymentDocument, standing: DocumentStanding): string {
  const payment = document.payment;
  switch (payment.method) {
    case 'card':
      return `card, paid ${payment.paidOn}`;
    case 'bank-transfer':
      return `bank transfer, due ${payment.dueOn}, ${standing.paidOn ? `paid ${standing.paidOn}` : 'unpaid'}`;
    case 'refund':
      return `refunded to the ${payment.to === 'card' ? 'card' : 'paying account'} on ${payment.refundedOn}`;
    case 'cancellation':
      return `cancelled on ${payment.cancelledOn}: no longer owed`;
  }
}

const show: AdminCommand<DocumentCommandSettings> = {
  name: 'invoices show',
  summary: 'Show an invoice, receipt or credit note (INV-/CN-YYYY-NNNNN); --pdf writes its PDF',
  details: [
    'The document as issued (decisions 180, 220): buyer, lines, gross (what is owed or paid)',
    'with net and VAT beside, how it was paid, where it stands now (unpaid, paid, refunded,',
    'credited, with its credit notes), and its signed link. With --pdf <file> its PDF is written',
    'to the file (0600).',
  ].join('\n'),
  arguments: [
    { name: 'number', description: 'The document number, e.g. INV-2026-00001 or CN-2026-00001' },
  ],
  options: {
    pdf: { type: 'string', description: 'Write the PDF to this file' },
    json: { type: 'boolean', description: 'Print JSON' },
  },
  async run(context, { args, options }) {
    const [number] = args;
    if (!number || !parseDocumentNumber(number)) {
      throw new AdminError('Name the document: invoices show INV-YYYY-NNNNN (or CN-…)', 2);
    }
    const db = await context.database();
    const found = await findPaymentDocumentStanding(db, number);
    if (!found) throw new AdminError(`No invoice, receipt or credit note ${number}.`);
    const { document, standing } = found;
    const url = paymentDocumentUrl(
      context.env.PUBLIC_BASE_URL,
      await secretKeyOf(context, db),
      number,
    );
    if (typeof options.pdf === 'string') {
      const { renderPaymentDocumentPdf } = await import('./render-payment-document-pdf.ts');
      const path = context.resolvePath(options.pdf);
      await context.files.write(path, await renderPaymentDocumentPdf(document));
      context.io.err(`PDF written to ${path}`);
    }
    if (options.json === true) {
      context.io.out(JSON.stringify({ ...document, standing, url }, null, 2));
      return EXIT_OK;
    }
    const money = (minor: number) => formatCents(minor, document.currency);
    const noun = documentNoun(document.kind);
    context.io.out(
      [
        `${noun.charAt(0).toUpperCase()}${noun.slice(1)} ${document.number} of ${document.issuedOn}`,
        `Status:  ${statusLine(document, standing, money)}`,
        ...(document.credits
          ? [
              `Corrects: ${document.credits.kind} ${document.credits.number} of ${document.credits.issuedOn}`,
            ]
          : []),
        `Buyer:   ${[document.buyer.companyName, document.buyer.email].filter(Boolean).join(', ')}${document.buyer.vatId ? ` (VAT ID ${document.buyer.vatId})` : ''}`,
        ...(document.buyer.vatIdConfirmation
          ? [
              `VIES:    confirmed on ${document.buyer.vatIdConfirmation.confirmedOn}, consultation number ${document.buyer.vatIdConfirmation.consultationNumber}`,
            ]
          : []),
        ...document.lines.map((line) => `Line:    ${line.description}: ${money(line.amountMinor)}`),
        `Gross:   ${money(document.grossMinor)}${document.kind === 'credit_note' ? ' credited' : ''}`,
        `Net:     ${money(document.netMinor)}`,
        `${document.vat.label}: ${money(document.vatMinor)}${document.kind === 'credit_note' ? ' reversed' : ''}`,
        ...(document.eur !== undefined
          ? [
              document.eur
                ? `In EUR:  net ${formatCents(document.eur.netMinor, 'EUR')}, VAT ${formatCents(document.eur.vatMinor, 'EUR')}, gross ${formatCents(document.eur.grossMinor, 'EUR')} at 1 EUR = ${document.eur.perEur} ${document.currency} (${document.eur.source}, ${document.eur.rateOn})`
                : `In EUR:  no rate was recorded when it was issued`,
            ]
          : []),
        `Payment: ${paymentLine(document, standing)}`,
        ...(document.reason ? [`Reason:  ${document.reason}`] : []),
        `Link:    ${url}`,
        ...(typeof options.pdf === 'string' ? [`PDF written to ${options.pdf}`] : []),
      ].join('\n'),
    );
    return EXIT_OK;
  },
};

const list: AdminCommand<DocumentCommandSettings> = {
  name: 'invoices list',
  summary:
    'List the invoices, receipts and credit notes the product issued (INV-, CN-), newest first',
  details: [
    'Each with its date, where it stands (unpaid, paid, refunded, credited), the gross owed or',
    'paid with net and VAT beside, what is still owed, the buyer, and for a credit note the',
    'document it corrects (decisions 180, 220). With Stripe, Stripe numbers and lists its own',
    'invoices (its Dashboard); these are the documents of the local provider. --limit (100).',
  ].join('\n'),
  options: {
    limit: { type: 'string', description: 'How many (default 100)' },
  },
  async run(context, { options }) {
    const limit = options.limit === undefined ? 100 : positiveInteger(options.limit, 'limit');
    const db = await context.database();
    const repository = createPaymentDocumentRepository(db);
    const rows = await repository.listNewest(Math.min(limit, 10_000));
    const lines: string[][] = [];
    for (const row of rows) {
      const creditNotes =
        row.kind === 'credit_note' ? [] : await repository.creditNotesOf(row.number);
      const standing = documentStanding(row, creditNotes);
      const document = documentAsOfNow(row);
      const money = (minor: number) => formatCents(minor, document.currency);
      lines.push([
        row.number,
        documentNoun(row.kind),
        row.issuedOn,
        standing.status === 'issued' ? `corrects ${row.creditsNumber ?? '–'}` : standing.status,
        money(row.grossMinor),
        money(row.netMinor),
        money(row.vatMinor),
        standing.owedMinor > 0 ? money(standing.owedMinor) : '–',
        document.buyer.companyName ?? document.buyer.email,
      ]);
    }
    if (lines.length === 0) {
      context.io.out('No invoices, receipts or credit notes yet.');
      return EXIT_OK;
    }
    printTable(
      context,
      ['NUMBER', 'KIND', 'ISSUED', 'STATUS', 'GROSS', 'NET', 'VAT', 'OWED', 'BUYER'],
      lines,
    );
    return EXIT_OK;
  },
};

/** Invoice, receipt and credit note commands (listed by the domain's manifest, decision 169). */
export const paymentDocumentAdminCommands: readonly AdminCommand<DocumentCommandSettings>[] = [
  list,
  show,
];
