import { z } from 'zod';
import {
  CANCEL_INVOICE_ORDER_PATH,
  CONFIRM_INVOICE_ORDER_PATH,
  INVOICE_ORDER_PAGE,
  invoiceCheckoutRequestSchema,
  invoiceOrderLinkRequestSchema,
  type InvoiceCheckoutResponse,
  type InvoiceOrderPlaced,
} from '#shared/contracts/invoice-checkout.ts';
import {
  INVOICE_ORDER_LINK_HOURS,
  INVOICE_ORDERS_PER_DOMAIN,
} from '#shared/contracts/invoice-order-messages.ts';
import { defineApiDocs } from '#server/platform/api-doc/api-doc.ts';
import {
  errorBodySchema,
  invalidRequestErrorSchema,
  payloadTooLargeErrorSchema,
  rateLimitHeadersDoc,
  tooManyRequestsErrorSchema,
  unsupportedMediaTypeErrorSchema,
} from '#server/platform/api-doc/common-errors.ts';
import type { SameType } from '#server/platform/api-doc/same-type.ts';

const invoiceOrderPlacedSchema = z
  .object({
    status: z.literal('confirmation-sent'),
    billingEmail: z.string().describe('Where the confirmation link was sent.'),
    confirmBy: z.string().describe(`ISO 8601: the link works ${INVOICE_ORDER_LINK_HOURS} hours.`),
    message: z.string().describe('“Check your inbox to confirm…”, to show as it is.'),
  })
  .meta({ id: 'InvoiceOrderPlaced' });

const invoiceOrderSchema = z
  .object({
    subscriptionId: z.string(),
    invoiceNumber: z.string(),
    invoiceUrl: z
      .string()
      .describe('The provider’s page of the invoice: pay there, or get the PDF.'),
    amountDue: z.number().describe('In minor units (cents).'),
    currency: z.enum(['USD', 'EUR']),
    dueAt: z.string().describe('ISO 8601: 30 days after the invoice was issued.'),
    licenceEmail: z.string().describe('Where the licence key was sent.'),
  })
  .meta({ id: 'InvoiceOrder' });

const placedMatches: SameType<z.output<typeof invoiceOrderPlacedSchema>, InvoiceOrderPlaced> = true;
void placedMatches;
const responseMatches: SameType<
  z.output<typeof invoiceOrderSchema>,
  InvoiceCheckoutResponse
> = true;
void responseMatches;

const linkResponses = {
  400: { description: 'Malformed JSON or token.', schema: invalidRequestErrorSchema },
  410: {
    description:
      'InvoiceOrderLinkInvalid: unknown, expired, used (the order is confirmed) or cancelled.',
    schema: errorBodySchema,
  },
  413: { description: 'The body is larger than 16 KiB.', schema: payloadTooLargeErrorSchema },
  415: { description: 'The body is not JSON.', schema: unsupportedMediaTypeErrorSchema },
  429: {
    description: 'Too many requests from this address (30 an hour).',
    schema: tooManyRequestsErrorSchema,
    headers: rateLimitHeadersDoc,
  },
} as const;

export const invoiceCheckoutApiDocs = defineApiDocs([
  {
    method: 'post',
    path: '/account/v1/checkout/invoice',
    operationId: 'createInvoiceSubscription',
    tag: 'Subscriptions',
    summary: 'Order yearly Pro or Enterprise paid by invoice, net 30 (decisions 144, 153)',
    description: `Stores the order and e-mails a confirmation link to the billing address; nothing else happens until it is confirmed: no customer, subscription, invoice or licence. The link opens the site page ${INVOICE_ORDER_PAGE}?token=…, whose button confirms the order (\`POST ${CONFIRM_INVOICE_ORDER_PATH}\`). At most one open order (unconfirmed, or confirmed and unpaid) per billing address (normalized: case and +tags do not count) and ${INVOICE_ORDERS_PER_DOMAIN} confirmed unpaid orders per e-mail domain. Company name and billing e-mail are required; the VAT ID (EU) and PO reference are printed on the invoice. \`quoteToken\` (the quote's accept link token) makes the order accept that quote, once (decision 154).`,
    request: { body: invoiceCheckoutRequestSchema },
    responses: {
      201: {
        description: 'The order waits for the confirmation of its billing address.',
        schema: invoiceOrderPlacedSchema,
      },
      400: {
        description:
          'InvalidRequest: a field is missing or invalid, the plan is not yearly Pro or Enterprise (field billingPeriod), or the quote link is not valid or names another plan (field quoteToken).',
        schema: errorBodySchema,
      },
      409: {
        description:
          'InvoiceOrderOpen: this billing address has an open order; InvoiceOrderDomainLimit: its domain has its open orders; QuoteAlreadyAccepted or QuoteExpired: the quote cannot be ordered. The message names the way out (contact sales).',
        schema: errorBodySchema,
      },
      413: { description: 'The body is larger than 16 KiB.', schema: payloadTooLargeErrorSchema },
      415: { description: 'The body is not JSON.', schema: unsupportedMediaTypeErrorSchema },
      429: {
        description:
          'Too many orders: from this client (10 an hour) or for this billing e-mail (5 a day).',
        schema: tooManyRequestsErrorSchema,
      },
    },
  },
  {
    method: 'post',
    path: CONFIRM_INVOICE_ORDER_PATH,
    operationId: 'confirmInvoiceOrder',
    tag: 'Subscriptions',
    summary: 'Confirm an invoice order: the button of its landing page',
    description: `Uses the link's token once: the provider creates the customer and the subscription, its invoice is sent net 30 and the licence is issued (key e-mailed). Of two confirmations at the same moment one creates the subscription. Only this POST uses a link: a GET of the e-mailed link (${INVOICE_ORDER_PAGE}?token=…) shows the order and changes nothing.`,
    request: { body: invoiceOrderLinkRequestSchema },
    responses: {
      200: { description: 'The order and its invoice.', schema: invoiceOrderSchema },
      ...linkResponses,
      409: {
        description:
          'InvoiceOrderDomainLimit: the domain has its open orders (the link stays usable); QuoteAlreadyAccepted: another order accepted the quote first (this one is cancelled).',
        schema: errorBodySchema,
      },
      503: {
        description: 'PaymentProviderUnavailable: the provider failed; the link stays usable.',
        schema: errorBodySchema,
      },
    },
  },
  {
    method: 'post',
    path: CANCEL_INVOICE_ORDER_PATH,
    operationId: 'cancelInvoiceOrder',
    tag: 'Subscriptions',
    summary: 'Cancel an invoice order that is not confirmed: the landing page’s other button',
    request: { body: invoiceOrderLinkRequestSchema },
    responses: {
      204: { description: 'Cancelled: the link is dead and the address may order again.' },
      ...linkResponses,
    },
  },
]);
