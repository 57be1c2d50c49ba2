import {
  planName,
  type BillingPeriod,
  type Currency,
  type Edition,
} from '#shared/pricing/index.ts';
import { siteConfig } from '#shared/site-config.ts';
import { renderEmail, type RenderedEmail } from '#server/platform/email/render-email.ts';

type OrderFacts = {
  edition: Edition;
  quantity: number;
  billingPeriod: BillingPeriod;
  currency: Currency;
};

const day = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' });

/**
 * The order is confirmed and waits for finance (decision 230): what happens next and by when. No
 * key and no invoice yet; our words and the plan only, as in the confirmation e-mail.
 */
export function invoiceOrderInReviewEmail(input: {
  orderId: string;
  order: OrderFacts;
  reviewDueAt: Date;
  publicBaseUrl: string;
}): RenderedEmail {
  const product = siteConfig.productName;
  return renderEmail({
    subject: `Your ${product} order is being reviewed`,
    publicBaseUrl: input.publicBaseUrl,
    blocks: [
      { kind: 'paragraph', text: 'Hello,' },
      {
        kind: 'paragraph',
        text: `thank you for confirming your order paid by invoice. Before we extend credit, our finance team reviews it. You will hear from us by ${day.format(input.reviewDueAt)}: once it is approved, the invoice and the licence key are sent at once.`,
      },
      {
        kind: 'facts',
        items: [
          { label: 'Order', value: input.orderId },
          { label: 'Plan', value: planName(input.order.edition, input.order.quantity) },
          {
            label: 'Billing',
            value: `${input.order.billingPeriod}, in ${input.order.currency}, net 30`,
          },
        ],
      },
      {
        kind: 'note',
        text: `Questions, or in a hurry? Write to ${siteConfig.salesEmail} and name the order. You can also buy by card on the pricing page: the licence is issued at once.`,
      },
    ],
  });
}

/** Finance did not approve the order (decision 230): the reason, and the ways that remain. */
export function invoiceOrderRejectedEmail(input: {
  orderId: string;
  order: OrderFacts;
  reason: string;
  publicBaseUrl: string;
}): RenderedEmail {
  const product = siteConfig.productName;
  return renderEmail({
    subject: `Your ${product} order paid by invoice was not approved`,
    publicBaseUrl: input.publicBaseUrl,
    blocks: [
      { kind: 'paragraph', text: 'Hello,' },
      {
        kind: 'paragraph',
        text: `we cannot accept your order ${input.orderId} (${planName(input.order.edition, input.order.quantity)}, paid by invoice). Nothing was charged and no invoice was issued.`,
      },
      { kind: 'facts', items: [{ label: 'Reason', value: input.reason }] },
      {
        kind: 'note',
        text: `You can buy by card on the pricing page, or write to ${siteConfig.salesEmail} to talk it over.`,
      },
    ],
  });
}
