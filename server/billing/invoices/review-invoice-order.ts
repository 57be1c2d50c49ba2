import {
  invoiceCheckoutRequestSchema,
  type InvoiceCheckoutResponse,
} from '#shared/contracts/invoice-checkout.ts';
import { currentAuditContext } from '#server/platform/audit/audit-context.ts';
import { createOutboxRepository } from '#server/platform/email/outbox-repository.ts';
import type { SyncDeps } from '../subscriptions/sync-subscription.ts';
import type { ViesClient } from '../vat/vies-client.ts';
import { createQuoteRepository } from '../quotes/quote-repository.ts';
import { fulfilInvoiceOrder } from './confirm-invoice-order.ts';
import { invoiceOrderRejectedEmail } from './emails/invoice-order-review-emails.ts';
import { createInvoiceOrderRepository, type InvoiceOrder } from './invoice-order-repository.ts';

export type ReviewRefusal = {
  ok: false;
  code: 'OrderNotFound' | 'NotAwaitingApproval';
  message: string;
};

async function refusal(deps: Pick<SyncDeps, 'db'>, orderId: string): Promise<ReviewRefusal> {
  const order = await createInvoiceOrderRepository(deps.db).findById(orderId);
  return order
    ? {
        ok: false,
        code: 'NotAwaitingApproval',
        message: `Invoice order ${orderId} is ${order.status.replaceAll('_', ' ')}, not waiting for approval.`,
      }
    : { ok: false, code: 'OrderNotFound', message: `No invoice order ${orderId}.` };
}

/** Who reviews: the actor of the current audit context (decision 224). */
const reviewer = () => currentAuditContext()?.actor ?? 'system:unattributed';

/**
 * Finance approves an order waiting for approval (decision 230): exactly what a confirmation did
 * before — the provider creates the subscription and its invoice, the licence is issued and the
 * key e-mailed. Of two approvals at once, one; a provider failure puts it back in the queue.
 */
export async function approveInvoiceOrder(
  deps: SyncDeps & { vies: ViesClient },
  orderId: string,
): Promise<
  | { ok: true; order: InvoiceCheckoutResponse }
  | ReviewRefusal
  | { ok: false; code: 'LinkInvalid'; message: string }
> {
  const claimed = await createInvoiceOrderRepository(deps.db).claimForApproval(orderId);
  if (!claimed) return refusal(deps, orderId);
  const fulfilled = await fulfilInvoiceOrder(deps, claimed, {
    onFailure: 'awaiting',
    review: { at: deps.clock(), by: reviewer() },
  });
  return fulfilled.ok
    ? fulfilled
    : { ok: false, code: 'LinkInvalid', message: 'The order can no longer be paid by invoice.' };
}

/**
 * Finance rejects an order waiting for approval (decision 230), with a reason the buyer reads: the
 * order ends, a quote it accepted may be ordered again, nothing was created to undo.
 */
export async function rejectInvoiceOrder(
  deps: Pick<SyncDeps, 'db' | 'clock' | 'publicBaseUrl' | 'wakeOutbox'>,
  orderId: string,
  reason: string,
): Promise<{ ok: true; order: InvoiceOrder } | ReviewRefusal> {
  const now = deps.clock();
  const rejected = await deps.db.transaction(async (tx) => {
    const order = await createInvoiceOrderRepository(tx).reject(orderId, {
      at: now,
      by: reviewer(),
      reason,
    });
    if (!order) return undefined;
    if (order.quoteNumber) {
      await createQuoteRepository(tx).releaseAcceptance(order.quoteNumber, order.id);
    }
    const details = invoiceCheckoutRequestSchema.parse(order.details);
    const email = invoiceOrderRejectedEmail({
      orderId: order.id,
      order: {
        edition: details.edition,
        quantity: details.quantity,
        billingPeriod: details.billingPeriod,
        currency: details.billingCurrency,
      },
      reason,
      publicBaseUrl: deps.publicBaseUrl,
    });
    await createOutboxRepository(tx).enqueue(
      { ...email, kind: 'invoice-order-rejected', to: order.billingEmail },
      now,
    );
    return order;
  });
  if (!rejected) return refusal(deps, orderId);
  deps.wakeOutbox();
  return { ok: true, order: rejected };
}
