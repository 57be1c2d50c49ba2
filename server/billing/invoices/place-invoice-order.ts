import {
  type InvoiceCheckoutRequest,
  type InvoiceOrderPlaced,
  INVOICE_ORDER_PAGE,
} from '#shared/contracts/invoice-checkout.ts';
import {
  INVOICE_ORDER_LINK_HOURS,
  invoiceOrderMessages,
} from '#shared/contracts/invoice-order-messages.ts';
import { createOutboxRepository } from '#server/platform/email/outbox-repository.ts';
import { normalizeEmailAddress } from '#server/platform/email/normalize-email-address.ts';
import type { SyncDeps } from '../subscriptions/sync-subscription.ts';
import { findQuoteByToken } from '../quotes/read-quote.ts';
import { quoteStatusOf } from '../quotes/quote-status.ts';
import type { InvoiceOrderDetails } from './create-invoice-checkout.ts';
import { invoiceOrderConfirmationEmail } from './emails/invoice-order-confirmation-email.ts';
import { mayPayByInvoice } from '../subscriptions/invoice-rules.ts';
import { invoiceOrderAmounts } from './invoice-order-amounts.ts';
import { invoiceOrderCapOf } from './invoice-order-cap.ts';
import { createInvoiceOrderRepository } from './invoice-order-repository.ts';
import {
  createInvoiceOrderId,
  createInvoiceOrderToken,
  hashInvoiceOrderToken,
} from './invoice-order-token.ts';

export type PlaceInvoiceOrderRefusal =
  | 'NotInvoiceable'
  | 'NoBankAccount'
  | 'QuoteLinkInvalid'
  | 'QuotePlanDiffers'
  | 'QuoteAccepted'
  | 'QuoteExpired'
  | 'OrderOpen'
  | 'DomainLimit';

export type PlaceInvoiceOrderResult =
  | { ok: true; orderId: string; placed: InvoiceOrderPlaced }
  | { ok: false; code: PlaceInvoiceOrderRefusal };

const HOUR_MS = 60 * 60 * 1000;

/** The link the confirmation e-mail carries: the site's landing page (GET changes nothing). */
export function invoiceOrderLink(publicBaseUrl: string, token: string): string {
  const query = new URLSearchParams({ token }).toString();
  return new URL(`${INVOICE_ORDER_PAGE}?${query}`, publicBaseUrl).toString();
}

/**
 * An order paid by invoice (decision 153), in order: yearly Pro and Enterprise only → a seller's
 * bank account in its currency (decision 218) → a quote it
 * accepts must be its link's, for the same plan, neither accepted nor expired (decision 154) →
 * under the cap's lock (the domain's, or a free-mail address's own; decision 209): no confirmed
 * unpaid order for the normalized address (a pending one, maybe a stranger's, blocks nothing),
 * and at a company domain fewer than INVOICE_ORDERS_PER_DOMAIN confirmed unpaid ones → the
 * order is stored pending and the confirmation link e-mailed to the billing address, in one
 * transaction. No customer, subscription, invoice or licence exists until the link's page
 * confirms it, and the confirmation checks both caps again. A licence holder is kept in its own
 * column, not in the details, so an erasure of the holder can take it out (decision 223); only
 * the billing mailbox's confirmation sends the holder the key.
 */
export async function placeInvoiceOrder(
  deps: Pick<SyncDeps, 'db' | 'clock' | 'secretKey' | 'publicBaseUrl' | 'bankAccounts'>,
  request: InvoiceCheckoutRequest,
): Promise<PlaceInvoiceOrderResult> {
  if (!mayPayByInvoice(request)) return { ok: false, code: 'NotInvoiceable' };
  // An invoice needs an account to be paid into (decision 218).
  if (!deps.bankAccounts[request.billingCurrency]) return { ok: false, code: 'NoBankAccount' };
  const now = deps.clock();
  const { quoteToken, licenceHolderEmail: holder, ...details } = request;
  let quoteNumber: string | null = null;
  if (quoteToken) {
    const quote = await findQuoteByToken(deps, quoteToken);
    if (!quote) return { ok: false, code: 'QuoteLinkInvalid' };
    const samePlan =
      quote.edition === details.edition &&
      quote.quantity === details.quantity &&
      quote.billingPeriod === details.billingPeriod &&
      quote.currency === details.billingCurrency;
    if (!samePlan) return { ok: false, code: 'QuotePlanDiffers' };
    const status = quoteStatusOf(quote, now);
    if (status === 'accepted') return { ok: false, code: 'QuoteAccepted' };
    if (status === 'expired') return { ok: false, code: 'QuoteExpired' };
    quoteNumber = quote.number;
  }
  const emailNormalized = normalizeEmailAddress(details.billingEmail);
  // The billing mailbox itself named as holder is no holder (decision 223).
  const licenceHolderEmail =
    holder && normalizeEmailAddress(holder) !== emailNormalized ? holder : null;
  const cap = invoiceOrderCapOf(emailNormalized);
  const token = createInvoiceOrderToken();
  const expiresAt = new Date(now.getTime() + INVOICE_ORDER_LINK_HOURS * HOUR_MS);
  const stored: InvoiceOrderDetails = details;
  return deps.db.transaction(async (tx): Promise<PlaceInvoiceOrderResult> => {
    const orders = createInvoiceOrderRepository(tx);
    await orders.lock(cap.lockKey);
    const refusal = await orders.capRefusal(cap, emailNormalized, now);
    if (refusal) return { ok: false, code: refusal };
    const order = await orders.insert({
      id: createInvoiceOrderId(),
      tokenHash: hashInvoiceOrderToken(deps.secretKey, token),
      status: 'pending',
      billingEmail: details.billingEmail,
      emailNormalized,
      emailDomain: cap.domain,
      details: stored,
      licenceHolderEmail,
      quoteNumber,
      expiresAt,
      createdAt: now,
    });
    const email = invoiceOrderConfirmationEmail({
      order: {
        edition: details.edition,
        quantity: details.quantity,
        billingPeriod: details.billingPeriod,
        currency: details.billingCurrency,
      },
      quoteNumber,
      amount: invoiceOrderAmounts(details),
      confirmUrl: invoiceOrderLink(deps.publicBaseUrl, token),
      publicBaseUrl: deps.publicBaseUrl,
      licenceHolderEmail,
    });
    await createOutboxRepository(tx).enqueue(
      { ...email, kind: 'invoice-order-confirmation', to: details.billingEmail },
      now,
    );
    return {
      ok: true,
      orderId: order.id,
      placed: {
        status: 'confirmation-sent',
        billingEmail: details.billingEmail,
        confirmBy: expiresAt.toISOString(),
        message: invoiceOrderMessages.checkInbox(details.billingEmail),
      },
    };
  });
}
