import {
  AdminError,
  EXIT_OK,
  type AdminCommand,
  type CommandSettings,
} from '#server/platform/commands/command.ts';
import { formatCents } from '#shared/pricing/index.ts';
import { paymentDocumentUrl } from './payment-document-link.ts';
import { parseDocumentNumber } from './payment-document.ts';
import { findPaymentDocument } from './read-payment-document.ts';
import { secretKeyOf } from '#server/platform/commands/command-io.ts';

interface DocumentCommandSettings extends CommandSettings {
  PUBLIC_BASE_URL: string;
}

const show: AdminCommand<DocumentCommandSettings> = {
  name: 'invoices show',
  summary: 'Show an invoice or receipt (INV-YYYY-NNNNN); --pdf writes its PDF',
  details: [
    'The document as issued (decision 180): buyer, lines, net, VAT, gross, how it was paid,',
    'and its signed link. With --pdf <file> its PDF is written to the file (0600).',
  ].join('\n'),
  arguments: [{ name: 'number', description: 'The document number, e.g. INV-2026-00001' }],
  options: {
    pdf: { type: 'string', description: 'Write the PDF to this file' },
    json: { type: 'boolean', description: 'Print JSON' },
  },
  async run(context, { args, options }) {
    const [number] = args;
    if (!number || !parseDocumentNumber(number)) {
      throw new AdminError('Name the document: invoices show INV-YYYY-NNNNN', 2);
    }
    const db = await context.database();
    const document = await findPaymentDocument(db, number);
    if (!document) throw new AdminError(`No invoice or receipt ${number}.`);
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
      context.io.out(JSON.stringify({ ...document, url }, null, 2));
      return EXIT_OK;
    }
    const money = (minor: number) => formatCents(minor, document.currency);
    const payment =
      document.payment.method === 'card'
        ? `card, paid ${document.payment.paidOn}`
        : `bank transfer, due ${document.payment.dueOn}${document.payment.paidOn ? `, paid ${document.payment.paidOn}` : ', unpaid'}`;
    context.io.out(
      [
        `${document.kind === 'receipt' ? 'Receipt' : 'Invoice'} ${document.number} of ${document.issuedOn}`,
        `Buyer:   ${[document.buyer.companyName, document.buyer.email].filter(Boolean).join(', ')}${document.buyer.vatId ? ` (VAT ID ${document.buyer.vatId})` : ''}`,
        ...(document.buyer.vatIdConfirmation
          ? [
              `VIES:    confirmed on ${document.buyer.vatIdConfirmation.confirmedOn}, consultation number ${document.buyer.vatIdConfirmation.consultationNumber}`,
            ]
          : []),
        ...document.lines.map((line) => `Line:    ${line.description}: ${money(line.amountMinor)}`),
        `Net:     ${money(document.netMinor)}`,
        `${document.vat.label}: ${money(document.vatMinor)}`,
        `Gross:   ${money(document.grossMinor)}`,
        ...(document.eur !== undefined
          ? [
              document.eur
                ? `In EUR:  net ${formatCents(document.eur.netMinor, 'EUR')}, VAT ${formatCents(document.eur.vatMinor, 'EUR')}, gross ${formatCents(document.eur.grossMinor, 'EUR')} at 1 EUR = ${document.eur.perEur} ${document.currency} (${document.eur.source}, ${document.eur.rateOn})`
                : `In EUR:  no rate was recorded when it was issued`,
            ]
          : []),
        `Payment: ${payment}`,
        `Link:    ${url}`,
        ...(typeof options.pdf === 'string' ? [`PDF written to ${options.pdf}`] : []),
      ].join('\n'),
    );
    return EXIT_OK;
  },
};

/** Invoice and receipt commands (listed by the domain's manifest, decision 169). */
export const paymentDocumentAdminCommands: readonly AdminCommand<DocumentCommandSettings>[] = [
  show,
];
