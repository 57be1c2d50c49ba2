import { AdminError, EXIT_OK, type AdminCommand } from '#server/platform/commands/command.ts';
import {
  formatTime,
  positiveInteger,
  printTable,
  secretKeyOf,
} from '#server/platform/commands/command-io.ts';
import { formatCents, planName } from '#shared/pricing/index.ts';
import { singleLineCheck } from '#shared/contracts/fields.ts';
import { z } from 'zod';
import { adminSyncDeps, type AdminSyncSettings } from '../payments/admin-sync-deps.ts';
import { invoiceCheckoutRequestSchema } from '#shared/contracts/invoice-checkout.ts';
import {
  cancelInvoiceOrderAsOperator,
  DEFAULT_CANCELLATION_REASON,
} from './cancel-invoice-order.ts';

/** The words a cancellation's credit note carries. */
const cancellationReasonSchema = z
  .string('--reason "…" is text')
  .trim()
  .min(3, '--reason is at least 3 characters')
  .max(200, '--reason is at most 200 characters')
  .check(singleLineCheck());
import { createInvoiceOrderRepository, type InvoiceOrder } from './invoice-order-repository.ts';

/** The order's state as an operator reads it: pending orders past their link are `expired`. */
function stateOf(order: InvoiceOrder, open: boolean, now: Date): string {
  if (order.status === 'pending' && order.expiresAt <= now) return 'expired';
  if (order.status === 'confirmed') return open ? 'confirmed, unpaid' : 'confirmed, paid';
  return order.status;
}

function planOf(order: InvoiceOrder): string {
  const details = invoiceCheckoutRequestSchema.safeParse(order.details);
  return details.success
    ? `${planName(details.data.edition, details.data.quantity)}, ${details.data.billingCurrency}`
    : '–';
}

function companyOf(order: InvoiceOrder): string {
  const details = invoiceCheckoutRequestSchema.safeParse(order.details);
  return details.success ? details.data.companyName : '–';
}

const list: AdminCommand<AdminSyncSettings> = {
  name: 'invoice-orders list',
  summary: 'List invoice orders: waiting for confirmation, confirmed (paid or not), cancelled',
  details: [
    'Newest first (decision 153). With --open only the orders that hold their address and',
    'domain: waiting for the e-mailed link, or confirmed with the invoice still unpaid.',
  ].join('\n'),
  options: {
    open: { type: 'boolean', description: 'Only open orders' },
    limit: { type: 'string', description: 'How many (default 50)' },
    json: { type: 'boolean', description: 'Print JSON' },
  },
  async run(context, { options }) {
    const limit = options.limit === undefined ? 50 : positiveInteger(options.limit, 'limit');
    const now = context.now();
    const orders = createInvoiceOrderRepository(await context.database());
    const rows = await orders.list({ limit, now, openOnly: options.open === true });
    const open = new Map<string, boolean>();
    for (const row of rows) open.set(row.id, await orders.isOpen(row.id, now));
    const described = rows.map((row) => ({
      id: row.id,
      state: stateOf(row, open.get(row.id) ?? false, now),
      open: open.get(row.id) ?? false,
      createdAt: row.createdAt,
      billingEmail: row.billingEmail,
      company: companyOf(row),
      plan: planOf(row),
      quoteNumber: row.quoteNumber,
      subscriptionId: row.subscriptionId,
      invoiceNumber: row.invoiceNumber,
    }));
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

const cancel: AdminCommand<AdminSyncSettings> = {
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
    const db = await context.database();
    const deps = await adminSyncDeps(db, context.env, context.now, await secretKeyOf(context, db));
    const result = await cancelInvoiceOrderAsOperator(deps, orderId, reason.data);
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

/** Invoice-order commands (listed by the domain's manifest, decision 169). */
export const invoiceOrderAdminCommands: readonly AdminCommand<AdminSyncSettings>[] = [list, cancel];
