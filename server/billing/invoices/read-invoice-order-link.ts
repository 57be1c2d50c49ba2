import {
  invoiceCheckoutRequestSchema,
  invoiceOrderLinkRequestSchema,
  type InvoiceOrderLinkStatus,
} from '#shared/contracts/invoice-checkout.ts';
import { planName } from '#shared/pricing/index.ts';
import { formatEmailDate } from '#server/platform/email/render-email.ts';
import type { SyncDeps } from '../subscriptions/sync-subscription.ts';
import { findInvoiceOrderByToken } from './confirm-invoice-order.ts';
import { invoiceOrderAmounts } from './invoice-order-amounts.ts';

/**
 * What the invoice-order landing page shows for its link, read without using it (a GET may be
 * a mail scanner, decision 153): the pending order, or that the link no longer works.
 */
export async function readInvoiceOrderLink(
  deps: Pick<SyncDeps, 'db' | 'clock' | 'secretKey'>,
  token: string | null,
): Promise<InvoiceOrderLinkStatus> {
  if (!token) return { state: 'missing' };
  if (!invoiceOrderLinkRequestSchema.safeParse({ token }).success) return { state: 'invalid' };
  const order = await findInvoiceOrderByToken(deps, token);
  if (!order || order.status !== 'pending' || order.expiresAt <= deps.clock()) {
    return { state: 'invalid' };
  }
  const details = invoiceCheckoutRequestSchema.safeParse(order.details);
  if (!details.success) return { state: 'invalid' };
  const request = details.data;
  return {
    state: 'ready',
    planName: planName(request.edition, request.quantity),
    billingPeriod: request.billingPeriod,
    currency: request.billingCurrency,
    companyName: request.companyName,
    billingEmail: request.billingEmail,
    poReference: request.poReference,
    quoteNumber: order.quoteNumber,
    amount: invoiceOrderAmounts(request),
    validUntil: `${formatEmailDate(order.expiresAt)}, ${order.expiresAt.toISOString().slice(11, 16)} UTC`,
  };
}
