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

export type OperatorCancellation =
  | { ok: true; order: InvoiceOrder; endedSubscription: string | null }
  | { ok: false; reason: 'NotFound' | 'AlreadyCancelled' };

/**
 * An operator's answer to a suspicious invoice order (decision 153): an order not yet confirmed
 * (or stuck while confirming) is cancelled, so its link dies and its address may order again; a
 * confirmed one has its subscription ended at the provider (its open invoice is no longer owed
 * there) and re-read, which ends the licence as for any ended subscription.
 */
export async function cancelInvoiceOrderAsOperator(
  deps: SyncDeps,
  orderId: string,
): Promise<OperatorCancellation> {
  const orders = createInvoiceOrderRepository(deps.db);
  const now = deps.clock();
  let order = await orders.findById(orderId);
  if (!order) return { ok: false, reason: 'NotFound' };
  if (order.status === 'pending' || order.status === 'confirming') {
    const cancelled = await orders.cancel(order.id, 'operator', now, { orStuck: true });
    if (cancelled) return { ok: true, order: cancelled, endedSubscription: null };
    // Confirmed (or cancelled) meanwhile: read it again.
    order = await orders.findById(orderId);
  }
  const subscriptionId = order?.status === 'confirmed' ? order.subscriptionId : null;
  if (!order || !subscriptionId) return { ok: false, reason: 'AlreadyCancelled' };
  await deps.payments.cancelSubscription(subscriptionId);
  await syncSubscription(deps, subscriptionId);
  await orders.markConfirmedCancelled(order.id, now);
  const updated = (await orders.findById(order.id)) ?? order;
  return { ok: true, order: updated, endedSubscription: subscriptionId };
}
