import * as z from 'zod/mini';
import { quantityIsValidForEdition } from '../pricing/index.ts';
import {
  buyerAddressFields,
  buyerStateCheck,
  buyerVatId,
  buyerVatIdCheck,
} from './buyer-address.ts';
import { singleLineCheck } from './fields.ts';
import { INVOICE_ORDER_LINK_HOURS } from './invoice-order-messages.ts';
import { licenceHolderEmailField, licenceHolderMessages } from './licence-holder.ts';

const TEXT_MAX_LENGTH = 200;
const EMAIL_MAX_LENGTH = 254;

export const invoiceCheckoutMessages = {
  quantityInvalid: 'The quantity does not fit the edition.',
  companyRequired: 'Enter the company name the invoice is made out to.',
  emailInvalid: 'Enter the e-mail address the invoice is sent to.',
  tooLong: `At most ${TEXT_MAX_LENGTH} characters.`,
  notInvoiceable: 'Pay by invoice is offered for yearly Pro and Enterprise subscriptions only.',
  quoteLinkInvalid: 'This quote link is not valid. Use the “Accept this quote” link in your quote.',
  quotePlanDiffers: 'An order that accepts a quote must be for the plan the quote names.',
} as const;

const optionalText = (max = TEXT_MAX_LENGTH) =>
  z.pipe(
    z.optional(
      z.nullable(
        z
          .string()
          .check(z.trim(), z.maxLength(max, invoiceCheckoutMessages.tooLong), singleLineCheck()),
      ),
    ),
    z.transform((value) => (value ? value : null)),
  );

/** The longest company name and purchase-order reference an order by invoice takes. */
export const invoiceCheckoutLimits = { companyName: TEXT_MAX_LENGTH, purchaseOrder: 100 } as const;

/** The buyer's fields of an order by invoice: the accept page's form checks them as the service does. */
const invoiceBuyerFields = {
  companyName: z
    .string({ error: invoiceCheckoutMessages.companyRequired })
    .check(
      z.trim(),
      z.minLength(1, invoiceCheckoutMessages.companyRequired),
      z.maxLength(invoiceCheckoutLimits.companyName, invoiceCheckoutMessages.tooLong),
      singleLineCheck(),
    ),
  billingEmail: z
    .string({ error: invoiceCheckoutMessages.emailInvalid })
    .check(
      z.trim(),
      z.maxLength(EMAIL_MAX_LENGTH, invoiceCheckoutMessages.emailInvalid),
      z.email({ error: invoiceCheckoutMessages.emailInvalid }),
    ),
  ...buyerAddressFields,
  poReference: optionalText(invoiceCheckoutLimits.purchaseOrder),
  /** Who receives the licence key, when not the billing address (decision 223). */
  licenceHolderEmail: licenceHolderEmailField,
};

/** The accept page's form: the buyer's fields, the VAT ID checked against the country. */
export const invoiceCheckoutFormSchema = z
  .object(invoiceBuyerFields)
  .check(buyerVatIdCheck, buyerStateCheck);

/**
 * `POST /account/v1/checkout/invoice` (decision 144): a yearly Pro or Enterprise subscription
 * paid by invoice, net 30. The company dialog and the quote's accept page send the same
 * structured address and VAT ID as a quote (decision 179); the VAT ID must fit the country.
 */
export const invoiceCheckoutRequestSchema = z.pipe(
  z
    .strictObject({
      edition: z.enum(['Starter', 'Pro', 'Enterprise']),
      quantity: z.int(),
      billingPeriod: z.enum(['monthly', 'yearly']),
      billingCurrency: z.enum(['USD', 'EUR']),
      ...invoiceBuyerFields,
      /**
       * Set by the quote's accept page: the token of the quote's accept link, so the order accepts
       * that quote (once, decision 154) and its number is printed on the invoice.
       */
      quoteToken: z.optional(
        z.nullable(
          z
            .string()
            .check(z.regex(/^[A-Za-z0-9_-]{32}$/, invoiceCheckoutMessages.quoteLinkInvalid)),
        ),
      ),
    })
    .check(
      z.refine((request) => quantityIsValidForEdition(request.edition, request.quantity), {
        path: ['quantity'],
        error: invoiceCheckoutMessages.quantityInvalid,
      }),
      buyerVatIdCheck,
      buyerStateCheck,
      z.refine((request) => request.edition !== 'Starter' || !request.licenceHolderEmail, {
        path: ['licenceHolderEmail'],
        error: licenceHolderMessages.notForStarter,
      }),
    ),
  z.transform((request) => ({ ...request, vatId: buyerVatId(request) ?? null })),
);

export type InvoiceCheckoutRequest = z.output<typeof invoiceCheckoutRequestSchema>;
export type InvoiceCheckoutRequestInput = z.input<typeof invoiceCheckoutRequestSchema>;

/** `201` of the order: nothing is created until the link e-mailed to `billingEmail` is confirmed. */
/** The `201` of an order by invoice: a confirmation link went to the billing address. */
export const invoiceOrderPlacedSchema = z
  .object({
    status: z.literal('confirmation-sent'),
    billingEmail: z.string().check(z.describe('Where the confirmation link was sent.')),
    confirmBy: z
      .string()
      .check(z.describe(`ISO 8601: the link works ${INVOICE_ORDER_LINK_HOURS} hours.`)),
    message: z.string().check(z.describe('“Check your inbox to confirm…”, to show as it is.')),
  })
  .register(z.globalRegistry, { id: 'InvoiceOrderPlaced' });

export type InvoiceOrderPlaced = z.output<typeof invoiceOrderPlacedSchema>;

/** The site's page the confirmation e-mail links to, with `?token=…` (decision 153). */
export const INVOICE_ORDER_PAGE = '/invoice-order';
/** `POST` with the link's token: the order is confirmed and the subscription created. */
export const CONFIRM_INVOICE_ORDER_PATH = '/account/v1/checkout/invoice/confirm';
/** `POST` with the link's token: the order is cancelled (the address's slot is free again). */
export const CANCEL_INVOICE_ORDER_PATH = '/account/v1/checkout/invoice/cancel';

export const invoiceOrderLinkRequestSchema = z.strictObject({
  token: z
    .string({ error: 'token is required.' })
    .check(z.minLength(1, 'token is required.'), z.maxLength(100, 'token is too long.')),
});

/** What an invoice order costs as its page and e-mail show it: gross, with net and VAT beside. */
export interface InvoiceOrderAmounts {
  currency: 'USD' | 'EUR';
  netMinor: number;
  vatMinor: number;
  grossMinor: number;
  /** "VAT 19 %", "VAT 0 % (reverse charge)", "No German VAT". */
  vatLabel: string;
  /** Why the VAT is what it is (e.g. the reverse charge applies once VIES confirms the ID). */
  note: string | null;
}

/** What the landing page knows about its link, read without using it. */
export type InvoiceOrderLinkStatus =
  | {
      state: 'ready';
      planName: string;
      billingPeriod: 'monthly' | 'yearly';
      currency: 'USD' | 'EUR';
      companyName: string;
      billingEmail: string;
      poReference: string | null;
      quoteNumber: string | null;
      /** What the order costs (decision 218). */
      amount: InvoiceOrderAmounts;
      /** e.g. "28 November 2026, 14:05 UTC". */
      validUntil: string;
    }
  | { state: 'invalid' }
  | { state: 'missing' };

/** A confirmed order waiting for finance (decision 230): 202, no key and no invoice yet. */
export const invoiceOrderInReviewSchema = z
  .object({
    status: z.literal('in-review'),
    orderId: z.string(),
    reviewBy: z.string().check(z.describe('ISO 8601: finance answers by then.')),
    message: z
      .string()
      .check(z.describe('“Thank you: your order is confirmed and…”, to show as it is.')),
  })
  .register(z.globalRegistry, { id: 'InvoiceOrderInReview' });

export type InvoiceOrderInReview = z.output<typeof invoiceOrderInReviewSchema>;

/** The confirmed order: the licence key goes to `licenceEmail`, the invoice is at `invoiceUrl`. */
export const invoiceCheckoutResponseSchema = z
  .object({
    subscriptionId: z.string(),
    invoiceNumber: z.string(),
    invoiceUrl: z
      .string()
      .check(z.describe('The provider’s page of the invoice: pay there, or get the PDF.')),
    amountDue: z.number().check(z.describe('With VAT, in minor units (cents).')),
    amountNet: z.number().check(z.describe('Without VAT, in minor units.')),
    amountVat: z
      .number()
      .check(z.describe('The VAT of `amountDue` (0 for a reverse charge or outside the EU).')),
    currency: z.enum(['USD', 'EUR']),
    dueAt: z.string().check(z.describe('ISO 8601: 30 days after the invoice was issued.')),
    licenceEmail: z.string().check(z.describe('Where the licence key was sent.')),
    invoiceEmailedTo: z
      .nullable(z.string())
      .check(
        z.describe(
          'Where the provider e-mailed the invoice; null when it sent none (test mode): then `invoiceUrl` is the only copy.',
        ),
      ),
  })
  .register(z.globalRegistry, { id: 'InvoiceOrder' });

export type InvoiceCheckoutResponse = z.output<typeof invoiceCheckoutResponseSchema>;
