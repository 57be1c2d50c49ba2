import { INVOICE_ORDER_LINK_HOURS } from '#shared/contracts/invoice-order-messages.ts';
import type { InvoiceOrderAmounts } from '#shared/contracts/invoice-checkout.ts';
import {
  formatCents,
  planName,
  type BillingPeriod,
  type Currency,
  type Edition,
} from '#shared/pricing/index.ts';
import { siteConfig } from '#shared/site-config.ts';
import { renderEmail, type RenderedEmail } from '#server/platform/email/render-email.ts';

/**
 * The link that confirms an invoice order (decision 153), sent to the billing address before
 * anything is created. Only our own words, the plan and what it costs (gross, net and VAT,
 * decision 218): the company name and PO reference the visitor typed stay on the landing page, so
 * no stranger's text travels in our e-mail.
 */
export function invoiceOrderConfirmationEmail(input: {
  order: { edition: Edition; quantity: number; billingPeriod: BillingPeriod; currency: Currency };
  quoteNumber: string | null;
  amount: InvoiceOrderAmounts;
  confirmUrl: string;
  publicBaseUrl: string;
  /** Who the licence key is for, when not this address (decision 223). */
  licenceHolderEmail?: string | null;
}): RenderedEmail {
  const { order, quoteNumber, amount, confirmUrl, publicBaseUrl } = input;
  const money = (minor: number) => formatCents(minor, amount.currency);
  const product = siteConfig.productName;
  return renderEmail({
    subject: `Confirm your ${product} order paid by invoice`,
    publicBaseUrl,
    blocks: [
      { kind: 'paragraph', text: 'Hello,' },
      {
        kind: 'paragraph',
        text: `someone ordered an ${product} subscription paid by invoice for this e-mail address. Nothing has been ordered yet: open the link to see the order and confirm it. Only then do we send the invoice and the licence key.`,
      },
      {
        kind: 'facts',
        items: [
          { label: 'Plan', value: planName(order.edition, order.quantity) },
          { label: 'Billing', value: `${order.billingPeriod}, in ${order.currency}, net 30` },
          { label: 'Total (gross)', value: money(amount.grossMinor) },
          { label: 'Net', value: money(amount.netMinor) },
          { label: amount.vatLabel, value: money(amount.vatMinor) },
          ...(quoteNumber ? [{ label: 'Quote', value: quoteNumber }] : []),
          ...(input.licenceHolderEmail
            ? [{ label: 'Licence key to', value: input.licenceHolderEmail }]
            : []),
        ],
      },
      ...(amount.note ? [{ kind: 'note' as const, text: amount.note }] : []),
      { kind: 'button', label: 'Review and confirm the order', url: confirmUrl },
      {
        kind: 'note',
        text: `The link works for ${INVOICE_ORDER_LINK_HOURS} hours. If you did not order this, ignore this e-mail or cancel the order on the same page; nothing will be sent.`,
      },
    ],
  });
}
