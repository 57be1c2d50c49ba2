import * as z from 'zod/mini';
import { quantityIsValidForEdition, type BillingPeriod, type Currency } from '../pricing/index.ts';
import { emailAddressField, optionalLine, optionalLines, requiredLine } from './fields.ts';
import { validationMessages as m } from './messages.ts';

export const quoteLimits = {
  companyName: 200,
  billingAddress: 500,
  billingAddressLines: 6,
  purchaseOrder: 100,
  /** Longer than any VAT ID with spaces and dots, short enough to refuse junk at once. */
  vatIdInput: 40,
} as const;

/**
 * A VAT identification number, loosely (decision 143): a two-letter country prefix, then 2 to 13
 * letters or digits. Spaces, dots and hyphens people type are dropped and letters upper-cased
 * first; whether the number exists is not checked here.
 */
export const VAT_ID_PATTERN = /^[A-Z]{2}[A-Z0-9]{2,13}$/;

/** `de 123.456-789` → `DE123456789`. */
export function normalizeVatId(value: string): string {
  return value.replace(/[\s.-]/g, '').toUpperCase();
}

const vatIdField = z.pipe(
  z
    .pipe(
      z.optional(
        z.nullable(
          z.string({ error: m.notText }).check(z.maxLength(quoteLimits.vatIdInput, m.vatIdInvalid)),
        ),
      ),
      z.transform((value) => normalizeVatId(value ?? '')),
    )
    .check(z.refine((value) => value === '' || VAT_ID_PATTERN.test(value), m.vatIdInvalid)),
  z.transform((value) => (value ? value : undefined)),
);

/** What the visitor types into the quote dialog; the dialog validates with these same fields. */
const customerFields = {
  companyName: requiredLine(m.companyNameRequired, quoteLimits.companyName, m.companyTooLong),
  emailAddress: emailAddressField,
  billingAddress: optionalLines(
    quoteLimits.billingAddress,
    m.billingAddressTooLong,
    quoteLimits.billingAddressLines,
    m.billingAddressTooManyLines,
  ),
  vatId: vatIdField,
  purchaseOrder: optionalLine(quoteLimits.purchaseOrder, m.purchaseOrderTooLong),
};

export const quoteFormSchema = z.object(customerFields);

/**
 * `POST /account/v1/quotes`: the buyer's details and the pricing selector's choice. Quotes are
 * for the paid plans; the quantity must fit the edition as at checkout (Pro 4–24, Enterprise 25).
 */
export const quoteRequestSchema = z
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
  );

export type QuoteRequest = z.output<typeof quoteRequestSchema>;
export type QuoteRequestInput = z.input<typeof quoteRequestSchema>;

/** `201` answer: the quote's number and its two links (absolute, each carrying the token). */
export interface QuoteResponse {
  number: string;
  /** `YYYY-MM-DD`, the last day the quote's prices hold. */
  validUntil: string;
  /** `/quotes/<number>.pdf?token=…` */
  downloadUrl: string;
  /** `/quote/accept?token=…` */
  acceptUrl: string;
}

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
       * once an invoice order from it was confirmed (decision 154): it is ordered once.
       */
      state: 'open' | 'expired' | 'accepted';
      /** When and by which invoice it was accepted (state `accepted`). */
      accepted?: { on: string; invoiceNumber: string | null };
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
      total: string;
      /** "per month" or "per year". */
      period: string;
      taxNote: string;
      yearlySaving?: string;
      purchaseOrder?: string;
      /** The buyer's details as the quote states them: the invoice form starts from them. */
      buyerEmail: string;
      vatId?: string;
    };
