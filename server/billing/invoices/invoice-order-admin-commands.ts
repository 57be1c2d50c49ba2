import {
  AdminError,
  EXIT_OK,
  type AdminCommand,
  type CommandSettings,
} from '#server/platform/commands/command.ts';
import { formatTime, positiveInteger, printTable } from '#server/platform/commands/command-io.ts';
import { formatCents } from '#shared/pricing/index.ts';
import { singleLineCheck } from '#shared/contracts/fields.ts';
import { z } from 'zod';
import type { BillingPorts } from '../billing-ports.ts';
import { syncDepsOf } from '../subscriptions/sync-subscription.ts';
import { viesClientOf } from '../vat/confirm-vat-id.ts';
import { approveInvoiceOrder, rejectInvoiceOrder } from './review-invoice-order.ts';
import { reviewReasonSchema } from './invoice-approval.ts';
import {
  cancelInvoiceOrderAsOperator,
  DEFAULT_CANCELLATION_REASON,
} from './cancel-invoice-order.ts';
import { listInvoiceOrders } from './invoice-order-list.ts';

/** The words a cancellation's credit note carries. */
const cancellationReasonSchema = z
  .string('--reason "…" is text')
  .trim()
  .min(3, '--reason is at least 3 characters')
  .max(200, '--reason is at most 200 characters')
  .check(singleLineCheck());

/** The invoice-order commands: printers over the domain's functions (decision 232). */
type InvoiceOrderCommand = AdminCommand<CommandSettings, BillingPorts>;

const list: InvoiceOrderCommand = {
  name: 'invoice-orders list',
  summary: 'List invoice orders: waiting for confirmation, confirmed (paid or not), cancelled',
  details: [
    'Newest first (decision 153). With --open only the orders that hold their address and',
    'domain: waiting for the e-mailed link, or confirmed with the invoice still unpaid.',
  ].join('\n'),
  options: {
    open: { type: 'boolean', description: 'Only open orders' },
    awaiting: {
      type: 'boolean',
      description: 'Only the orders waiting for finance, oldest first (decision 230)',
    },
    limit: { type: 'string', description: 'How many (default 50)' },
    json: { type: 'boolean', description: 'Print JSON' },
  },
  async run(context, { options }) {
    const limit = options.limit === undefined ? 50 : positiveInteger(options.limit, 'limit');
    const described = await listInvoiceOrders(await context.ports(), {
      limit,
      openOnly: options.open === true,
      awaiting: options.awaiting === true,
    });
    if (options.json === true) {
      context.io.out(JSON.stringify(described, null, 2));
      return EXIT_OK;
    }
    if (described.length === 0) {
      context.io.out('No invoice orders.');
      return EXIT_OK;
    }
    printTable(
      context,
      ['ORDER', 'STATE', 'PLACED', 'BILLING E-MAIL', 'COMPANY', 'PLAN', 'QUOTE', 'INVOICE'],
      described.map((order) => [
        order.id,
        order.state,
        formatTime(order.createdAt),
        order.billingEmail,
        order.company,
        order.plan,
        order.quoteNumber ?? '–',
        order.invoiceNumber ?? '–',
      ]),
    );
    return EXIT_OK;
  },
};

const cancel: InvoiceOrderCommand = {
  name: 'invoice-orders cancel',
  summary:
    'Cancel an invoice order; a confirmed one ends its licence and credits what is still owed',
  details: [
    'Not yet confirmed: the link stops working and the address may order again.',
    'Confirmed: the subscription is ended at the payment provider and re-read, which ends the',
    'licence (decision 153); each invoice still open gets a credit note for what it still asks',
    'for and is closed (decision 220): ours (CN-YYYY-NNNNN, e-mailed to the buyer) with the local',
    'provider, Stripe’s with Stripe. Money already paid is not paid back: payments refund does',
    'that. --reason "…" is printed on the credit note (default: "Order cancelled").',
  ].join('\n'),
  arguments: [{ name: 'order', description: 'The order id (io_…), from invoice-orders list' }],
  options: {
    reason: { type: 'string', description: 'Why (printed on the credit note)' },
  },
  async run(context, { args, options }) {
    const [orderId] = args;
    if (!orderId || !/^io_[A-Za-z0-9_-]{16}$/.test(orderId)) {
      throw new AdminError('Name the order: invoice-orders cancel io_…', 2);
    }
    const reason = cancellationReasonSchema.safeParse(
      options.reason ?? DEFAULT_CANCELLATION_REASON,
    );
    if (!reason.success) {
      throw new AdminError(reason.error.issues.map((issue) => issue.message).join('\n'), 2);
    }
    const result = await cancelInvoiceOrderAsOperator(
      syncDepsOf(await context.ports()),
      orderId,
      reason.data,
    );
    if (!result.ok) {
      throw new AdminError(
        result.reason === 'NotFound'
          ? `No invoice order ${orderId}.`
          : `Invoice order ${orderId} is cancelled already.`,
      );
    }
    context.io.out(
      [
        result.endedSubscription
          ? `Invoice order ${orderId} is cancelled; subscription ${result.endedSubscription} has ended.`
          : `Invoice order ${orderId} is cancelled; its link no longer works.`,
        ...result.credits.map(
          (credit) =>
            `Invoice ${credit.invoice} is credited (${formatCents(credit.amountMinor, credit.currency)} no longer owed): credit note ${credit.creditNote ?? 'by the provider'}${credit.url ? `, ${credit.url}` : ''}.`,
        ),
      ].join('\n'),
    );
    return EXIT_OK;
  },
};

function orderIdOf(args: string[], command: string): string {
  const [orderId] = args;
  if (!orderId || !/^io_[A-Za-z0-9_-]{16}$/.test(orderId)) {
    throw new AdminError(`Name the order: invoice-orders ${command} io_…`, 2);
  }
  return orderId;
}

function reviewReason(value: string | boolean | undefined): string {
  const reason = reviewReasonSchema.safeParse(value);
  if (!reason.success) {
    throw new AdminError(reason.error.issues.map((issue) => issue.message).join('\n'), 2);
  }
  return reason.data;
}

const approve: InvoiceOrderCommand = {
  name: 'invoice-orders approve',
  summary: 'Approve an invoice order waiting for finance: the invoice and the key go out now',
  details: [
    'An order waits after its mailbox confirmed it when it is the company’s first (no paid',
    'invoice or receipt at its e-mail domain yet) or its net amount is above',
    'INVOICE_APPROVAL_ABOVE (decision 230). Approving it does what a confirmation did before: the',
    'provider creates the subscription and its invoice, the licence is issued and its key',
    'e-mailed. --reason is kept in the audit log.',
  ].join('\n'),
  arguments: [
    { name: 'order', description: 'The order id (io_…), from invoice-orders list --awaiting' },
  ],
  options: { reason: { type: 'string', description: 'Why (required; kept in the audit log)' } },
  async run(context, { args, options }) {
    const orderId = orderIdOf(args, 'approve');
    reviewReason(options.reason);
    const ports = await context.ports();
    const result = await approveInvoiceOrder(
      { ...syncDepsOf(ports), vies: viesClientOf(ports.env) },
      orderId,
    );
    if (!result.ok) throw new AdminError(result.message);
    context.io.out(
      `Approved ${orderId}: invoice ${result.order.invoiceNumber} (${formatCents(result.order.amountDue, result.order.currency)}, due ${formatTime(new Date(result.order.dueAt))}); the licence key is queued for ${result.order.licenceEmail}.`,
    );
    return EXIT_OK;
  },
};

const reject: InvoiceOrderCommand = {
  name: 'invoice-orders reject',
  summary: 'Reject an invoice order waiting for finance; the buyer is e-mailed the reason',
  details: [
    'Nothing was created for a waiting order, so nothing is undone: the order ends, a quote it',
    'accepted may be ordered again, and the billing address is e-mailed --reason (decision 230),',
    'which is also kept in the audit log. Write it for the buyer.',
  ].join('\n'),
  arguments: [
    { name: 'order', description: 'The order id (io_…), from invoice-orders list --awaiting' },
  ],
  options: { reason: { type: 'string', description: 'Why, for the buyer (required)' } },
  async run(context, { args, options }) {
    const orderId = orderIdOf(args, 'reject');
    const reason = reviewReason(options.reason);
    const result = await rejectInvoiceOrder(syncDepsOf(await context.ports()), orderId, reason);
    if (!result.ok) throw new AdminError(result.message);
    context.io.out(`Rejected ${orderId}; ${result.order.billingEmail} is e-mailed the reason.`);
    return EXIT_OK;
  },
};

/** Invoice-order commands (listed by the domain's manifest, decision 169). */
export const invoiceOrderAdminCommands: readonly InvoiceOrderCommand[] = [
  list,
  approve,
  reject,
  cancel,
];
