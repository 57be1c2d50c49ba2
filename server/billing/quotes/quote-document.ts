import { z } from 'zod';
import type { QuoteRequest } from '#shared/contracts/quotes.ts';
import { siteConfig } from '#shared/site-config.ts';
import { priceQuote } from './quote-lines.ts';
import { taxTreatment } from './tax-treatment.ts';

/**
 * Everything a quote's PDF and accept page show, frozen when the quote is made and stored with it
 * (`quotes.document`): later price or company changes never alter a quote already sent.
 */
export const quoteDocumentSchema = z.object({
  version: z.literal(1),
  number: z.string(),
  quoteDate: z.string(),
  validUntil: z.string(),
  seller: z.object({
    name: z.string(),
    addressLines: z.array(z.string()),
    managingDirector: z.string(),
    register: z.string(),
    vatId: z.string(),
    phone: z.string(),
    email: z.string(),
    website: z.string(),
  }),
  buyer: z.object({
    companyName: z.string(),
    email: z.string(),
    addressLines: z.array(z.string()),
    vatId: z.string().optional(),
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
  tax: z.object({ kind: z.enum(['reverse-charge', 'local-tax']), note: z.string() }),
});

export type QuoteDocument = z.infer<typeof quoteDocumentSchema>;

/** The seller as the imprint names it (shared/site-config.ts is the imprint's source too). */
function sellerDetails(publicBaseUrl: string): QuoteDocument['seller'] {
  const { company } = siteConfig;
  return {
    name: company.name,
    addressLines: [company.street, `${company.postalCode} ${company.city}`, company.country],
    managingDirector: company.managingDirector,
    register: `${company.registerCourtEn}, ${company.registerNumber}`,
    vatId: company.vatId,
    phone: company.phone,
    email: siteConfig.salesEmail,
    website: new URL(publicBaseUrl).host,
  };
}

/** The document of a new quote. */
export function buildQuoteDocument(input: {
  request: QuoteRequest;
  number: string;
  quoteDate: string;
  validUntil: string;
  publicBaseUrl: string;
}): QuoteDocument {
  const { request } = input;
  const priced = priceQuote({
    edition: request.edition,
    quantity: request.quantity,
    billingPeriod: request.billingPeriod,
    currency: request.billingCurrency,
  });
  const tax = taxTreatment(request.vatId, siteConfig.company.vatId);
  return {
    version: 1,
    number: input.number,
    quoteDate: input.quoteDate,
    validUntil: input.validUntil,
    seller: sellerDetails(input.publicBaseUrl),
    buyer: {
      companyName: request.companyName,
      email: request.emailAddress,
      addressLines: request.billingAddress ? request.billingAddress.split('\n') : [],
      ...(request.vatId ? { vatId: request.vatId } : {}),
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
    tax: { kind: tax.kind, note: tax.note },
  };
}
