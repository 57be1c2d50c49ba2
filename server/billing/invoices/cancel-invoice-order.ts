import type { Currency } from '#shared/pricing/index.ts';
import { creditPaymentDocument } from '../documents/credit-payment-document.ts';
import { paymentDocumentUrl } from '../documents/payment-document-link.ts';
import { createPaymentDocumentRepository } from '../documents/payment-document-repository.ts';
import { findPaymentDocumentStanding } from '../documents/read-payment-document.ts';
import { syncSubscription, type SyncDeps } from '../subscriptions/sync-subscription.ts';
import { findInvoiceOrderByToken } from './confirm-invoice-order.ts';
import { createInvoiceOrderRepository, type InvoiceOrder } from './invoice-order-repository.ts';

/** The landing page's "Cancel this order": a pending order's link cancels it (decision 153). */
export async function cancelInvoiceOrder(
  deps: Pick<SyncDeps, 'db' | 'clock' | 'secretKey'>,
  token: string,
): Promise<{ ok: true; orderId: string } | { ok: false; code: 'LinkInvalid' }> {
  const found = await findInvoiceOrderByToken(deps, token);
  if (!found || found.expiresAt <= deps.clock()) return { ok: false, code: 'LinkInvalid' };
  const cancelled = await createInvoiceOrderRepository(deps.db).cancel(
    found.id,
    'buyer',
    deps.clock(),
  );
  return cancelled ? { ok: true, orderId: cancelled.id } : { ok: false, code: 'LinkInvalid' };
}

/** A credit note of what was still owed of a cancelled order's invoice (decision 220). */
export interface CancellationCredit {
  /** The invoice credited: our number, or the provider's. */
  invoice: string;
  /** Our credit note (local) or the provider's (Stripe's number); null when it has none. */
  creditNote: string | null;
  url: string | null;
  amountMinor: number;
  currency: Currency;
}

export type OperatorCancellation =
  | {
      ok: true;
      order: InvoiceOrder;
      endedSubscription: string | null;
      credits: CancellationCredit[];
    }
  | { ok: false; reason: 'NotFound' | 'AlreadyCancelled' };

/** The words on the credit note of a cancellation when the operator gives none. */
export const DEFAULT_CANCELLATION_REASON = 'Order cancelled';

/**
 * Credits what is still owed of each open invoice of a subscription (decision 220): our invoice
 * gets our credit note (e-mailed to the buyer), the provider's its own (Stripe's credit note), and
 * the invoice is closed at the provider, so no reminder follows. Once per invoice, however often.
 */
export async function creditOpenInvoices(
  deps: SyncDeps,
  subscriptionId: string,
  reason: string,
): Promise<CancellationCredit[]> {
  const documents = createPaymentDocumentRepository(deps.db);
  const credits: CancellationCredit[] = [];
  for (const invoice of await deps.payments.listOpenInvoices(subscriptionId)) {
    const ours = await documents.findByProviderInvoice(deps.payments.name, invoice.invoiceId);
    const standing = ours ? await findPaymentDocumentStanding(deps.db, ours.number) : undefined;
    if (ours && standing) {
      if (standing.standing.owedMinor === 0) continue;
      const note = await creditPaymentDocument(deps, {
        number: ours.number,
        grossMinor: standing.standing.owedMinor,
        action: 'cancellation',
        reason,
        idempotencyKey: `cancel:${ours.number}`,
      });
      credits.push({
        invoice: ours.number,
        creditNote: note.number,
        url: paymentDocumentUrl(deps.publicBaseUrl, deps.secretKey, note.number),
        amountMinor: note.document.grossMinor,
        currency: note.document.currency,
      });
      continue;
    }
    if (invoice.remainingMinor === 0) continue;
    const credit = await deps.payments.creditInvoice({
      invoiceId: invoice.invoiceId,
      amountMinor: invoice.remainingMinor,
      refund: false,
      reason,
      idempotencyKey: `cancel:${invoice.invoiceId}`,
    });
    credits.push({
      invoice: invoice.number,
      creditNote: credit.number,
      url: credit.pdfUrl,
      amountMinor: invoice.remainingMinor,
      currency: invoice.currency,
    });
  }
  return credits;
}

/**
 * An operator's answer to a suspicious invoice order (decision 153): an order not yet confirmed
 * (or stuck while confirming) is cancelled, so its link dies and its address may order again; a
 * confirmed one has its subscription ended at the provider and re-read, which ends the licence as
 * for any ended subscription, and what its invoices still ask for is credited: a credit note each,
 * e-mailed to the buyer, and the invoice closed (decision 220). Money already paid stays paid: it
 * goes back only by a refund (`payments refund`).
 */
export async function cancelInvoiceOrderAsOperator(
  deps: SyncDeps,
  orderId: string,
  reason: string = DEFAULT_CANCELLATION_REASON,
): Promise<OperatorCancellation> {
  const orders = createInvoiceOrderRepository(deps.db);
  const now = deps.clock();
  let order = await orders.findById(orderId);
  if (!order) return { ok: false, reason: 'NotFound' };
  if (order.status === 'pending' || order.status === 'confirming') {
    const cancelled = await orders.cancel(order.id, 'operator', now, { orStuck: true });
    if (cancelled) return { ok: true, order: cancelled, endedSubscription: null, credits: [] };
    // Confirmed (or cancelled) meanwhile: read it again.
    order = await orders.findById(orderId);
  }
  const subscriptionId = order?.status === 'confirmed' ? order.subscriptionId : null;
  if (!order || !subscriptionId) return { ok: false, reason: 'AlreadyCancelled' };
  await deps.payments.cancelSubscription(subscriptionId);
  await syncSubscription(deps, subscriptionId);
  const credits = await creditOpenInvoices(deps, subscriptionId, reason);
  await orders.markConfirmedCancelled(order.id, now);
  const updated = (await orders.findById(order.id)) ?? order;
  return { ok: true, order: updated, endedSubscription: subscriptionId, credits };
}
