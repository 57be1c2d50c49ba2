import { z } from 'zod';
import { sellerDetails, sellerSchema } from '#server/billing/seller.ts';
import type { QuoteRequest } from '#shared/contracts/quotes.ts';
import { countryNames, isCountryCode } from '#shared/countries.ts';
import { cityLine } from '#shared/subdivisions.ts';
import { decideVat, vatAmounts, vatCases, vatLabel } from '#shared/pricing/vat.ts';
import {
  vatIdConfirmationSchema,
  type VatIdConfirmation,
} from '#shared/pricing/vat-id-confirmation.ts';
import { priceQuote } from './quote-lines.ts';

/**
 * Everything a quote's PDF and accept page show, frozen when the quote is made and stored with it
 * (`quotes.document`): later price or company changes never alter a quote already sent.
 */
/**
 * The tax of a quote made before decision 177 (document version 1): "+ local tax" or the reverse
 * charge, no amounts. Kept so those quotes still render as they were sent.
 */
const legacyTaxSchema = z.object({
  kind: z.enum(['reverse-charge', 'local-tax']),
  note: z.string(),
});

/** The tax of a quote by the VAT rule (decision 177): its case, rate, amounts and note. */
const vatSchema = z.object({
  case: z.enum(vatCases),
  ratePercent: z.number().int(),
  /** "VAT 19 %", "VAT 0 % (reverse charge)"… */
  label: z.string(),
  vatCents: z.number().int(),
  grossCents: z.number().int(),
  note: z.string().nullable(),
});

export const quoteDocumentSchema = z.object({
  version: z.union([z.literal(1), z.literal(2)]),
  number: z.string(),
  quoteDate: z.string(),
  validUntil: z.string(),
  seller: sellerSchema,
  buyer: z.object({
    companyName: z.string(),
    email: z.string(),
    addressLines: z.array(z.string()),
    /** The address as entered (version 2): the invoice form of the accept page starts from it. */
    address: z
      .object({
        addressLine: z.string(),
        postalCode: z.string(),
        city: z.string(),
        /** US, Canada, Australia (decision 219); absent elsewhere and on older quotes. */
        state: z.string().optional(),
        country: z.string(),
      })
      .optional(),
    vatId: z.string().optional(),
    /** VIES's confirmation of the VAT ID, when the reverse charge rests on it (decision 210). */
    vatIdConfirmation: vatIdConfirmationSchema.optional(),
    purchaseOrder: z.string().optional(),
  }),
  plan: z.object({
    edition: z.enum(['Pro', 'Enterprise']),
    quantity: z.number().int(),
    billingPeriod: z.enum(['monthly', 'yearly']),
    currency: z.enum(['USD', 'EUR']),
    name: z.string(),
  }),
  lines: z.array(
    z.object({
      description: z.string(),
      detail: z.string(),
      quantity: z.number().int(),
      unitCents: z.number().int(),
      amountCents: z.number().int(),
    }),
  ),
  totalCents: z.number().int(),
  yearlySavingCents: z.number().int().optional(),
  period: z.string(),
  term: z.string(),
  tax: z.union([vatSchema, legacyTaxSchema]),
});

export type QuoteDocument = z.infer<typeof quoteDocumentSchema>;

/** The document of a new quote. */
export function buildQuoteDocument(input: {
  request: QuoteRequest;
  number: string;
  quoteDate: string;
  validUntil: string;
  publicBaseUrl: string;
  /** VIES's confirmation of the buyer's VAT ID, asked for just before (decision 210). */
  vatIdConfirmation: VatIdConfirmation | null;
}): QuoteDocument {
  const { request } = input;
  const priced = priceQuote({
    edition: request.edition,
    quantity: request.quantity,
    billingPeriod: request.billingPeriod,
    currency: request.billingCurrency,
  });
  const vat = decideVat({
    country: request.country,
    vatId: request.vatId,
    confirmation: input.vatIdConfirmation,
  });
  const amounts = vatAmounts(priced.totalCents, vat);
  const countryName = isCountryCode(request.country)
    ? countryNames[request.country]
    : request.country;
  return {
    version: 2,
    number: input.number,
    quoteDate: input.quoteDate,
    validUntil: input.validUntil,
    seller: sellerDetails(input.publicBaseUrl),
    buyer: {
      companyName: request.companyName,
      email: request.emailAddress,
      addressLines: [request.addressLine, cityLine(request), countryName],
      address: {
        addressLine: request.addressLine,
        postalCode: request.postalCode,
        city: request.city,
        ...(request.state ? { state: request.state } : {}),
        country: request.country,
      },
      ...(request.vatId ? { vatId: request.vatId } : {}),
      ...(vat.confirmation ? { vatIdConfirmation: vat.confirmation } : {}),
      ...(request.purchaseOrder ? { purchaseOrder: request.purchaseOrder } : {}),
    },
    plan: {
      edition: request.edition,
      quantity: request.quantity,
      billingPeriod: request.billingPeriod,
      currency: request.billingCurrency,
      name: priced.planName,
    },
    lines: priced.lines,
    totalCents: priced.totalCents,
    ...(priced.yearlySavingCents !== undefined
      ? { yearlySavingCents: priced.yearlySavingCents }
      : {}),
    period: priced.period,
    term: priced.term,
    tax: {
      case: vat.case,
      ratePercent: vat.ratePercent,
      label: vatLabel(vat),
      vatCents: amounts.vatMinor,
      grossCents: amounts.grossMinor,
      note: vat.note,
    },
  };
}

/** One line of a quote's totals: net, VAT, gross (or, for a version-1 quote, net and "+ local tax"). */
export interface QuoteTotalLine {
  label: string;
  cents: number | null;
  emphasis: boolean;
}

/**
 * The totals a quote shows wherever it is shown (PDF, e-mail, accept page, admin): net, the VAT
 * line and the gross for a quote by the VAT rule; for a version-1 quote its net total and, when
 * it said so, "+ local tax". The note is the tax's sentence, if any.
 */
export function quoteTotals(document: QuoteDocument): {
  lines: QuoteTotalLine[];
  note: string | null;
} {
  const { tax, period } = document;
  if ('kind' in tax) {
    return {
      lines: [
        { label: `Total (net) ${period}`, cents: document.totalCents, emphasis: true },
        ...(tax.kind === 'local-tax'
          ? [{ label: '+ local tax', cents: null, emphasis: false }]
          : []),
      ],
      note: tax.note,
    };
  }
  return {
    lines: [
      { label: `Net ${period}`, cents: document.totalCents, emphasis: false },
      { label: tax.label, cents: tax.vatCents, emphasis: false },
      { label: `Total ${period}`, cents: tax.grossCents, emphasis: true },
    ],
    note: tax.note,
  };
}
