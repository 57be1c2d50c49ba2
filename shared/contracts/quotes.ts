import * as z from 'zod/mini';
import { quantityIsValidForEdition, type BillingPeriod, type Currency } from '../pricing/index.ts';
import {
  buyerAddressFields,
  buyerAddressLimits,
  buyerVatId,
  buyerStateCheck,
  buyerVatIdCheck,
} from './buyer-address.ts';
import { emailAddressField, optionalLine, requiredLine } from './fields.ts';
import { validationMessages as m } from './messages.ts';

export const quoteLimits = {
  companyName: 200,
  purchaseOrder: 100,
  ...buyerAddressLimits,
} as const;

/**
 * What the visitor types into the company dialog (decision 179); the dialog validates with these
 * same fields. The address is structured as an invoice prints it; the VAT ID must fit the
 * country (decision 177).
 */
const customerFields = {
  companyName: requiredLine(m.companyNameRequired, quoteLimits.companyName, m.companyTooLong),
  emailAddress: emailAddressField,
  ...buyerAddressFields,
  purchaseOrder: optionalLine(quoteLimits.purchaseOrder, m.purchaseOrderTooLong),
};

export const quoteFormSchema = z.object(customerFields).check(buyerVatIdCheck, buyerStateCheck);

/**
 * `POST /account/v1/quotes`: the buyer's details and the pricing selector's choice. Quotes are
 * for the paid plans; the quantity must fit the edition as at checkout (Pro 4–24, Enterprise 25).
 * The VAT ID comes out as it is printed (`123456789` in Germany → `DE123456789`).
 */
export const quoteRequestSchema = z.pipe(
  z
    .strictObject({
      ...customerFields,
      edition: z.enum(['Pro', 'Enterprise'], { error: m.quoteEditionInvalid }),
      quantity: z.int(),
      billingPeriod: z.enum(['monthly', 'yearly']),
      billingCurrency: z.enum(['USD', 'EUR']),
    })
    .check(
      z.refine((request) => quantityIsValidForEdition(request.edition, request.quantity), {
        path: ['quantity'],
        error: 'The quantity does not fit the edition.',
      }),
      buyerVatIdCheck,
      buyerStateCheck,
    ),
  z.transform((request) => ({ ...request, vatId: buyerVatId(request) })),
);

export type QuoteRequest = z.output<typeof quoteRequestSchema>;
export type QuoteRequestInput = z.input<typeof quoteRequestSchema>;

/** `201` answer: the quote's number and its two links (absolute, each carrying the token). */
export const quoteResponseSchema = z
  .object({
    number: z.string().check(z.describe('Q-YYYY-NNNN, counted per year.')),
    validUntil: z.string().check(z.describe('YYYY-MM-DD: the last day the quote’s prices hold.')),
    downloadUrl: z.string().check(z.describe('The PDF: /quotes/<number>.pdf?token=…')),
    acceptUrl: z
      .string()
      .check(z.describe('The page that accepts the quote: /quote/accept?token=…')),
  })
  .register(z.globalRegistry, { id: 'Quote' });

export type QuoteResponse = z.output<typeof quoteResponseSchema>;

/** One priced line as the accept page lists it (amounts already formatted to the cent). */
export interface QuoteSummaryLine {
  description: string;
  quantity: number;
  unitPrice: string;
  amount: string;
}

/** What the accept page shows for its link (read on the server; the token stays in the URL). */
export type QuoteSummary =
  | { state: 'missing' }
  /** Unknown, forged or malformed token. */
  | { state: 'invalid' }
  | {
      /**
       * `open` until the end of `validUntil`, then `expired` (the Buy button goes); `accepted`
       * once an invoice order from it was confirmed (decision 154) or its card checkout was paid
       * (decision 214): it is ordered once.
       */
      state: 'open' | 'expired' | 'accepted';
      /** When, how and by which invoice it was accepted (state `accepted`). */
      accepted?: { on: string; by: 'invoice' | 'card'; invoiceNumber: string | null };
      number: string;
      quoteDate: string;
      validUntil: string;
      companyName: string;
      edition: 'Pro' | 'Enterprise';
      quantity: number;
      billingPeriod: BillingPeriod;
      currency: Currency;
      planName: string;
      lines: QuoteSummaryLine[];
      /** The net total. */
      total: string;
      /** "per month" or "per year". */
      period: string;
      /** Net, VAT and gross (decision 177); a quote from before it: net and "+ local tax". */
      totals: { label: string; amount: string | null; emphasis: boolean }[];
      /** The VAT rule's note (reverse charge, outside the EU…); none for plain German VAT. */
      taxNote: string | null;
      yearlySaving?: string;
      purchaseOrder?: string;
      /** The buyer's details as the quote states them: the invoice form starts from them. */
      buyerEmail: string;
      vatId?: string;
      /** The structured address (quotes since decision 179). */
      address?: {
        addressLine: string;
        postalCode: string;
        city: string;
        state?: string | undefined;
        country: string;
      };
    };
