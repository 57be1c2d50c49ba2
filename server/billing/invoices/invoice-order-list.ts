import type { Executor } from '#server/platform/db/database.ts';
import { invoiceCheckoutRequestSchema } from '#shared/contracts/invoice-checkout.ts';
import { planName } from '#shared/pricing/index.ts';
import { createInvoiceOrderRepository, type InvoiceOrder } from './invoice-order-repository.ts';

/** Which invoice orders an operator lists (decisions 153, 230). */
export interface InvoiceOrderFilter {
  limit: number;
  /** Only the orders that hold their address and domain: pending, or confirmed and unpaid. */
  openOnly?: boolean;
  /** Only the orders waiting for finance, oldest first. */
  awaiting?: boolean;
}

/** One invoice order as an operator reads it: the CLI prints it, `--json` shows it as is. */
export interface InvoiceOrderLine {
  id: string;
  /** `pending`, `expired`, `confirmed, unpaid`, `awaiting approval (first order, answer by …)`, … */
  state: string;
  open: boolean;
  createdAt: Date;
  billingEmail: string;
  company: string;
  plan: string;
  quoteNumber: string | null;
  subscriptionId: string | null;
  invoiceNumber: string | null;
}

/** The order's state as an operator reads it: pending orders past their link are `expired`. */
function stateOf(order: InvoiceOrder, open: boolean, now: Date): string {
  if (order.status === 'pending' && order.expiresAt <= now) return 'expired';
  if (order.status === 'confirmed') return open ? 'confirmed, unpaid' : 'confirmed, paid';
  if (order.status === 'awaiting_approval') {
    const why = order.reviewReason === 'first-order' ? 'first order' : 'above threshold';
    return `awaiting approval (${why}, answer by ${order.reviewDueAt?.toISOString().slice(0, 10) ?? '?'})`;
  }
  return order.status;
}

/**
 * The invoice orders an operator asked for, newest first (the waiting ones oldest first), each
 * with its state, company and plan: `invoice-orders list` prints them (decision 232).
 */
export async function listInvoiceOrders(
  ports: { database: { db: Executor }; clock: () => Date },
  filter: InvoiceOrderFilter,
): Promise<InvoiceOrderLine[]> {
  const now = ports.clock();
  const orders = createInvoiceOrderRepository(ports.database.db);
  const rows =
    filter.awaiting === true
      ? await orders.awaitingApproval(filter.limit)
      : await orders.list({ limit: filter.limit, now, openOnly: filter.openOnly === true });
  const lines: InvoiceOrderLine[] = [];
  for (const row of rows) {
    const open = await orders.isOpen(row.id, now);
    const details = invoiceCheckoutRequestSchema.safeParse(row.details);
    lines.push({
      id: row.id,
      state: stateOf(row, open, now),
      open,
      createdAt: row.createdAt,
      billingEmail: row.billingEmail,
      company: details.success ? details.data.companyName : '–',
      plan: details.success
        ? `${planName(details.data.edition, details.data.quantity)}, ${details.data.billingCurrency}`
        : '–',
      quoteNumber: row.quoteNumber,
      subscriptionId: row.subscriptionId,
      invoiceNumber: row.invoiceNumber,
    });
  }
  return lines;
}
