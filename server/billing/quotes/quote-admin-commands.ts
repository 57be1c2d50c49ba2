import { formatCents, isCurrency } from '#shared/pricing/index.ts';
import { AdminError, EXIT_OK, type AdminCommand } from '#server/platform/commands/command.ts';
import {
  formatTime,
  positiveInteger,
  printTable,
  sinceDay,
} from '#server/platform/commands/command-io.ts';
import { terminalField } from '#server/platform/commands/terminal-text.ts';
import { quoteDocumentSchema, quoteTotals } from './quote-document.ts';
import { parseQuoteNumber } from './quote-number.ts';
import { createQuoteRepository, type StoredQuote } from './quote-repository.ts';
import { quoteStatusOf } from './quote-status.ts';
import { renderQuotePdf } from './render-quote-pdf.ts';

function total(quote: StoredQuote): string {
  return isCurrency(quote.currency)
    ? formatCents(quote.totalCents, quote.currency)
    : `${quote.totalCents / 100} ${quote.currency}`;
}

/** What an operator may see of a quote: everything but the token's hash, with its status now. */
function publicFields(quote: StoredQuote, now: Date) {
  return {
    ...Object.fromEntries(Object.entries(quote).filter(([key]) => key !== 'tokenHash')),
    status: quoteStatusOf(quote, now),
  };
}

/** `accepted (INV-2026-00002)`, `accepted (card)`, `open`, `expired`. */
function statusText(quote: StoredQuote, now: Date): string {
  const status = quoteStatusOf(quote, now);
  if (status !== 'accepted') return status;
  if (quote.acceptedBy === 'card') return 'accepted (card)';
  return quote.acceptedInvoiceNumber ? `accepted (${quote.acceptedInvoiceNumber})` : status;
}

const list: AdminCommand = {
  name: 'quotes list',
  summary: 'List quotes, newest first',
  options: {
    limit: { type: 'string', description: 'How many (default 20)' },
    since: { type: 'string', description: 'Only quotes made from this day on (YYYY-MM-DD, UTC)' },
    json: { type: 'boolean', description: 'Print JSON' },
  },
  async run(context, { options }) {
    const limit = options.limit === undefined ? 20 : positiveInteger(options.limit, 'limit');
    const since = sinceDay(options.since);
    const rows = await createQuoteRepository(await context.database()).listRecent({
      limit,
      since,
    });
    if (options.json === true) {
      context.io.out(
        JSON.stringify(
          rows.map((quote) => publicFields(quote, context.now())),
          null,
          2,
        ),
      );
      return EXIT_OK;
    }
    if (rows.length === 0) {
      context.io.out('No quotes.');
      return EXIT_OK;
    }
    printTable(
      context,
      [
        'NUMBER',
        'DATE',
        'VALID UNTIL',
        'STATUS',
        'COMPANY',
        'E-MAIL',
        'PLAN',
        'BILLING',
        'TOTAL (NET)',
      ],
      rows.map((quote) => [
        quote.number,
        quote.quoteDate,
        quote.validUntil,
        statusText(quote, context.now()),
        quote.companyName,
        quote.email,
        `${quote.edition} ×${quote.quantity}`,
        quote.billingPeriod,
        total(quote),
      ]),
    );
    return EXIT_OK;
  },
};

const show: AdminCommand = {
  name: 'quotes show',
  summary: 'Show one quote: buyer, lines, total and tax note',
  arguments: [{ name: 'number', description: 'The quote number, e.g. Q-2026-0001' }],
  options: {
    json: { type: 'boolean', description: 'Print JSON' },
    pdf: {
      type: 'string',
      description:
        'Also write its PDF to this file (without the accept link, which only the buyer holds)',
    },
  },
  async run(context, { args, options }) {
    const number = args[0] ?? '';
    if (!parseQuoteNumber(number)) {
      throw new AdminError(`"${number}" is not a quote number like Q-2026-0001.`, 2);
    }
    const quote = await createQuoteRepository(await context.database()).findByNumber(number);
    if (!quote) throw new AdminError(`No quote ${number}.`);
    const document = quoteDocumentSchema.parse(quote.document);
    if (typeof options.pdf === 'string') {
      const path = context.resolvePath(options.pdf);
      await context.files.write(path, await renderQuotePdf(document));
      context.io.err(`PDF written to ${path}`);
    }
    if (options.json === true) {
      context.io.out(JSON.stringify(publicFields(quote, context.now()), null, 2));
      return EXIT_OK;
    }
    const money = (cents: number) => formatCents(cents, document.plan.currency);
    const facts: Array<[string, string | null]> = [
      ['Quote', quote.number],
      ['Date', quote.quoteDate],
      ['Valid until', quote.validUntil],
      ['Status', statusText(quote, context.now())],
      ['Accepted', quote.acceptedAt ? formatTime(quote.acceptedAt) : null],
      ['Invoice order', quote.acceptedOrderId],
      ['Subscription', quote.acceptedSubscriptionId],
      ['Made', formatTime(quote.createdAt)],
      ['Company', quote.companyName],
      ['E-mail', quote.email],
      ['Billing address', quote.billingAddress?.replaceAll('\n', ', ') ?? null],
      ['VAT ID', quote.vatId],
      [
        'VIES',
        document.buyer.vatIdConfirmation
          ? `confirmed on ${document.buyer.vatIdConfirmation.confirmedOn}, consultation number ${document.buyer.vatIdConfirmation.consultationNumber}`
          : null,
      ],
      ['Purchase order', quote.purchaseOrder],
      [
        'Plan',
        `${document.plan.name}, billed ${document.plan.billingPeriod} in ${document.plan.currency}`,
      ],
    ];
    for (const [label, value] of facts) {
      if (value) context.io.out(`${`${label}:`.padEnd(17)}${terminalField(value)}`);
    }
    context.io.out('');
    printTable(
      context,
      ['LINE', 'QTY', 'UNIT PRICE', 'AMOUNT'],
      document.lines.map((line) => [
        line.description,
        String(line.quantity),
        money(line.unitCents),
        money(line.amountCents),
      ]),
    );
    context.io.out('');
    const totals = quoteTotals(document);
    for (const line of totals.lines) {
      context.io.out(line.cents === null ? line.label : `${line.label}: ${money(line.cents)}`);
    }
    if (document.yearlySavingCents !== undefined) {
      context.io.out(`Yearly saving: ${money(document.yearlySavingCents)}`);
    }
    if (totals.note) context.io.out(`Tax: ${totals.note}`);
    return EXIT_OK;
  },
};

/** Quote commands (listed by the domain's manifest, decision 169). */
export const quoteAdminCommands: readonly AdminCommand[] = [list, show];
