import { siteConfig } from '../site-config.ts';
import { errorCodes } from './error-codes.ts';
import { billingErrorMessage } from './messages.ts';

/*
 * The texts of invoice orders (decisions 153, 154), apart from messages.ts so the pricing page's
 * first load does not carry them: the invoice form and the landing page load them when used.
 */

/** How long the link that confirms an invoice order works (decision 153). */
export const INVOICE_ORDER_LINK_HOURS = 24;
/**
 * Open unpaid invoice orders per company e-mail domain whose address was confirmed (decision
 * 153); free-mail domains have no domain cap (decision 209).
 */
export const INVOICE_ORDERS_PER_DOMAIN = 3;

/** The texts of an invoice order's confirmation: the form, its answers and the landing page. */
export const invoiceOrderMessages = {
  checkInbox: (billingEmail: string) =>
    `Check your inbox to confirm: we have sent a link to ${billingEmail}. Nothing is ordered and no invoice or licence key is sent until you open it and confirm the order. The link works for ${INVOICE_ORDER_LINK_HOURS} hours.`,
  orderOpen: `An invoice order for this e-mail address is already open: it was confirmed and its invoice is not paid yet. Pay that invoice first, or contact sales at ${siteConfig.salesEmail} to order more.`,
  domainLimit: `Addresses at this e-mail domain already have ${INVOICE_ORDERS_PER_DOMAIN} open invoice orders. Please contact sales at ${siteConfig.salesEmail} to order by invoice.`,
  linkInvalid: `This confirmation link does not work (any more): it has expired, was used, or its order was cancelled. Place the order again, or contact sales at ${siteConfig.salesEmail}.`,
  quoteAccepted: `This quote has already been accepted; a quote is ordered once. For another licence, get a new quote or contact sales at ${siteConfig.salesEmail}.`,
  quoteExpired:
    'This quote has expired; its prices no longer hold. Get a new quote for the same plan.',
  cancelled: 'The order is cancelled. Nothing was ordered and no invoice was sent.',
  /** Confirmed, waiting for finance (decision 230): shown with the day they answer by. */
  inReview: (reviewBy: string) =>
    `Thank you: your order is confirmed and our finance team is reviewing it. You will hear from us by ${reviewBy}; once it is approved, the invoice and the licence key are sent at once. We have e-mailed you the same.`,
  confirmButton: 'Confirm the order',
  confirming: 'Confirming…',
  cancelButton: 'Cancel this order',
  intro:
    'Someone ordered a subscription paid by invoice for this e-mail address. Nothing has been ordered yet: confirm the order to receive the invoice and the licence key, or cancel it if it was not you.',
  missing:
    'This page confirms an invoice order from the link in its e-mail. To order by invoice, choose a yearly Pro or Enterprise plan on the pricing page.',
} as const;

const invoiceOrderErrorMessages: Record<string, string> = {
  [errorCodes.invoiceOrderOpen]: invoiceOrderMessages.orderOpen,
  [errorCodes.invoiceOrderDomainLimit]: invoiceOrderMessages.domainLimit,
  [errorCodes.invoiceOrderLinkInvalid]: invoiceOrderMessages.linkInvalid,
  [errorCodes.quoteAlreadyAccepted]: invoiceOrderMessages.quoteAccepted,
  [errorCodes.quoteExpired]: invoiceOrderMessages.quoteExpired,
};

/** An invoice order's refusal by its `Error` field, else the billing service's text for it. */
export function invoiceOrderErrorMessage(code: string | undefined): string {
  return (code && invoiceOrderErrorMessages[code]) || billingErrorMessage(code);
}
