import { z } from 'zod';
import {
  invoiceCheckoutRequestSchema,
  type InvoiceCheckoutResponse,
} from '#shared/contracts/invoice-checkout.ts';
import { defineApiDocs } from '../openapi/api-doc.ts';
import {
  errorBodySchema,
  payloadTooLargeErrorSchema,
  tooManyRequestsErrorSchema,
  unsupportedMediaTypeErrorSchema,
} from '../openapi/common-errors.ts';
import type { SameType } from '../openapi/same-type.ts';

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

const responseMatches: SameType<
  z.output<typeof invoiceOrderSchema>,
  InvoiceCheckoutResponse
> = true;
void responseMatches;

export const invoiceCheckoutApiDocs = defineApiDocs([
  {
    method: 'post',
    path: '/account/v1/checkout/invoice',
    operationId: 'createInvoiceSubscription',
    tag: 'Subscriptions',
    summary: 'Subscribe to yearly Pro or Enterprise and pay by invoice, net 30 (decision 144)',
    description:
      'The invoice is sent at once and the licence issued at once. Company name and billing e-mail are required; the VAT ID (EU) and PO reference are printed on the invoice. Reminders follow on the due date and a week later; 14 days past due the licence is suspended until the invoice is paid.',
    request: { body: invoiceCheckoutRequestSchema },
    responses: {
      201: { description: 'The order and its invoice.', schema: invoiceOrderSchema },
      400: {
        description:
          'InvalidRequest: a field is missing or invalid, or the plan is not yearly Pro or Enterprise (field billingPeriod).',
        schema: errorBodySchema,
      },
      413: { description: 'The body is larger than 16 KiB.', schema: payloadTooLargeErrorSchema },
      415: { description: 'The body is not JSON.', schema: unsupportedMediaTypeErrorSchema },
      429: {
        description:
          'Too many orders: from this client (10 an hour) or for this billing e-mail (5 a day).',
        schema: tooManyRequestsErrorSchema,
      },
      503: {
        description: 'PaymentProviderUnavailable: the payment provider did not answer.',
        schema: errorBodySchema,
      },
    },
  },
]);
