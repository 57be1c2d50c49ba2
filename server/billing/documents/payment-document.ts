import { z } from 'zod';
import { calendarDateIn } from '#server/billing/calendar-date.ts';
import {
  euroAmountsAt,
  euroAmountsSchema,
  type RecordedRate,
} from '#server/billing/fx-rates/euro-amounts.ts';
import { sellerDetails, sellerSchema } from '#server/billing/seller.ts';
import { bankAccountSchema, type BankAccounts } from '#server/billing/bank-accounts.ts';
import { priceQuote } from '#server/billing/quotes/quote-lines.ts';
import {
  currencies,
  type BillingPeriod,
  type Currency,
  type Edition,
} from '#shared/pricing/index.ts';
import {
  decideVat,
  vatAmounts,
  vatCases,
  vatLabel,
  type VatDecision,
} from '#shared/pricing/vat.ts';
import {
  vatIdConfirmationSchema,
  type VatIdConfirmation,
} from '#shared/pricing/vat-id-confirmation.ts';
import { siteConfig } from '#shared/site-config.ts';

/**
 * The invoice or receipt of one payment (decision 180), or the credit note that corrects one
 * (decision 220): what its PDF shows, frozen when it is issued. Its figures are never recomputed:
 * a later change of prices or of the VAT rule leaves an issued document as it was.
 */

/**
 * The number series, each gap-free per calendar year: `INV-2026-00001` for invoices and receipts,
 * `CN-2026-00001` for credit notes.
 */
export const documentSeries = ['INV', 'CN'] as const;
export type DocumentSeries = (typeof documentSeries)[number];

/** Any document's number: `INV-2026-00001` or `CN-2026-00001`. */
export const DOCUMENT_NUMBER_PATTERN = /^(INV|CN)-(\d{4})-(\d{5,9})$/;

export type DocumentKind = 'receipt' | 'invoice' | 'credit_note';

export function seriesOfKind(kind: DocumentKind): DocumentSeries {
  return kind === 'credit_note' ? 'CN' : 'INV';
}

export function formatDocumentNumber(
  year: number,
  sequence: number,
  series: DocumentSeries = 'INV',
): string {
  return `${series}-${year}-${String(sequence).padStart(5, '0')}`;
}

export function parseDocumentNumber(
  number: string,
): { series: DocumentSeries; year: number; sequence: number } | null {
  const match = DOCUMENT_NUMBER_PATTERN.exec(number);
  if (!match) return null;
  return {
    series: match[1] === 'CN' ? 'CN' : 'INV',
    year: Number(match[2]),
    sequence: Number(match[3]),
  };
}

/**
 * A payment as a provider reports it, for the document the product makes itself (the local
 * provider's; Stripe makes its own). `receipt`: a card charge, paid; `invoice`: an invoice sent
 * for payment by its due date.
 */
export interface DocumentablePayment {
  /** The provider's id of the invoice or charge: one document per id. */
  invoiceId: string;
  /**
   * The number the provider already printed on it, taken from our series when it was sent (the
   * local provider's invoices, decision 218); absent: the document takes the next one.
   */
  number?: string | null;
  /** What was bought, so the document has the quote's lines (base and further orgs). */
  order?: { edition: Edition; quantity: number; billingPeriod: BillingPeriod };
  kind: 'receipt' | 'invoice';
  issuedAt: Date;
  paidAt: Date | null;
  dueAt: Date | null;
  currency: Currency;
  /** The price as charged: net (prices are net, decision 177). */
  netMinor: number;
  description: string;
  periodStart: Date;
  periodEnd: Date;
  buyer: {
    email: string;
    companyName: string | null;
    address: string | null;
    /** ISO 3166-1 alpha-2; unknown for a card charge of the test provider. */
    country: string | null;
    vatId: string | null;
    /** VIES's confirmation of `vatId` (decision 210); the reverse charge needs it. */
    vatIdConfirmation: VatIdConfirmation | null;
  };
  poReference: string | null;
  quoteReference: string | null;
}

const dateSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const minor = z.number().int().safe();

export const paymentDocumentSchema = z.object({
  number: z.string().regex(DOCUMENT_NUMBER_PATTERN),
  kind: z.enum(['receipt', 'invoice', 'credit_note']),
  issuedOn: dateSchema,
  seller: sellerSchema,
  buyer: z.object({
    companyName: z.string().nullable(),
    email: z.string(),
    addressLines: z.array(z.string()),
    country: z.string(),
    vatId: z.string().nullable(),
    /** VIES's confirmation the reverse charge rests on (decision 210); absent on older documents. */
    vatIdConfirmation: vatIdConfirmationSchema.nullable().optional(),
  }),
  lines: z.array(
    z.object({
      description: z.string(),
      detail: z.string(),
      quantity: z.number().int().positive(),
      unitMinor: minor,
      amountMinor: minor,
    }),
  ),
  currency: z.enum(currencies),
  netMinor: minor,
  vat: z.object({
    case: z.enum(vatCases),
    ratePercent: z.number().int().min(0).max(100),
    label: z.string(),
    note: z.string().nullable(),
  }),
  vatMinor: minor,
  grossMinor: minor,
  payment: z.discriminatedUnion('method', [
    z.object({ method: z.literal('card'), paidOn: dateSchema }),
    z.object({
      method: z.literal('bank-transfer'),
      dueOn: dateSchema,
      paidOn: dateSchema.nullable(),
    }),
    /** A credit note's money paid back (decision 220), the way it was paid. */
    z.object({
      method: z.literal('refund'),
      refundedOn: dateSchema,
      to: z.enum(['card', 'bank-transfer']),
    }),
    /** A credit note of an amount never paid: it is no longer owed (decision 220). */
    z.object({ method: z.literal('cancellation'), cancelledOn: dateSchema }),
  ]),
  purchaseOrder: z.string().nullable(),
  quoteReference: z.string().nullable(),
  /**
   * The seller's account an invoice is paid into, frozen when issued (decision 218); the
   * payment reference is the document's number. Absent on receipts and older documents.
   */
  bankAccount: bankAccountSchema.nullable().optional(),
  /** The provider's id of what was paid (of a credit note: the provider's credit), for the operator. */
  providerInvoiceId: z.string(),
  /**
   * A document in another currency than the euro: its amounts in EUR at the rate recorded when
   * it was issued (decision 221), or null when no rate was recorded by then. Absent on euro
   * documents and on documents issued before rates were recorded.
   */
  eur: euroAmountsSchema.nullable().optional(),
  /** A credit note's original: the invoice or receipt it corrects (decision 220). */
  credits: z
    .object({
      number: z.string().regex(DOCUMENT_NUMBER_PATTERN),
      kind: z.enum(['receipt', 'invoice']),
      issuedOn: dateSchema,
      grossMinor: minor,
    })
    .optional(),
  /** Why a credit note was issued, as the operator gave it. */
  reason: z.string().optional(),
});

export type PaymentDocument = z.infer<typeof paymentDocumentSchema>;

/** The seller's country: a buyer who named none is taxed as a domestic one (decision 180). */
const SELLER_COUNTRY = siteConfig.company.vatId.slice(0, 2);

/**
 * The VAT of a payment by the shared rule (decisions 177, 210). A buyer who named no country (a
 * card charge of the test provider), or whose country and VAT ID the rule refuses, is charged
 * German VAT: the seller owes it unless the buyer shows otherwise. The reverse charge needs
 * VIES's confirmation, stored with the invoice.
 */
export function vatOfPayment(
  buyer: Pick<DocumentablePayment['buyer'], 'country' | 'vatId' | 'vatIdConfirmation'>,
): VatDecision {
  const country = buyer.country?.toUpperCase() || SELLER_COUNTRY;
  try {
    return decideVat({
      country,
      vatId: buyer.vatId ?? undefined,
      confirmation: buyer.vatIdConfirmation,
    });
  } catch {
    return decideVat({ country: SELLER_COUNTRY });
  }
}

/**
 * The lines of a stored address: one per line break (decision 219, so "San Francisco, CA 94105"
 * stays one line), or, in addresses stored on one line before it, one per comma.
 */
function addressLinesOf(address: string | null): string[] {
  if (!address) return [];
  const lines = address.includes('\n') ? address.split('\n') : address.split(/\s*,\s*/);
  return lines.map((line) => line.trim()).filter(Boolean);
}

/** The day a document issued at `now` is dated (the seller's calendar). */
export function issueDayOf(now: Date): string {
  return calendarDateIn(now, siteConfig.company.timeZone);
}

/**
 * The document of a payment, numbered `number` and issued at `now`. `eurRate` is the latest rate
 * of the payment's currency recorded on or before the issue day (decision 221); it is ignored
 * for a euro payment.
 */
export function buildPaymentDocument(input: {
  payment: DocumentablePayment;
  number: string;
  now: Date;
  publicBaseUrl: string;
  eurRate?: RecordedRate | null | undefined;
  bankAccounts: BankAccounts;
}): PaymentDocument {
  const { payment, number, now } = input;
  const timeZone = siteConfig.company.timeZone;
  const day = (instant: Date) => calendarDateIn(instant, timeZone);
  const decision = vatOfPayment(payment.buyer);
  const amounts = vatAmounts(payment.netMinor, decision);
  const buyerCountry = payment.buyer.country?.toUpperCase() || SELLER_COUNTRY;
  return {
    number,
    kind: payment.kind,
    issuedOn: day(now),
    seller: sellerDetails(input.publicBaseUrl),
    buyer: {
      companyName: payment.buyer.companyName,
      email: payment.buyer.email,
      addressLines: addressLinesOf(payment.buyer.address),
      country: buyerCountry,
      vatId: decision.buyerVatId ?? null,
      vatIdConfirmation: decision.confirmation ?? null,
    },
    lines: documentLines(
      payment,
      `Service period ${day(payment.periodStart)} to ${day(payment.periodEnd)}`,
    ),
    currency: payment.currency,
    netMinor: amounts.netMinor,
    vat: {
      case: decision.case,
      ratePercent: amounts.ratePercent,
      label: vatLabel(decision),
      note: decision.note,
    },
    vatMinor: amounts.vatMinor,
    grossMinor: amounts.grossMinor,
    payment:
      payment.kind === 'receipt'
        ? { method: 'card', paidOn: day(payment.paidAt ?? payment.issuedAt) }
        : {
            method: 'bank-transfer',
            dueOn: day(payment.dueAt ?? payment.issuedAt),
            paidOn: payment.paidAt ? day(payment.paidAt) : null,
          },
    purchaseOrder: payment.poReference,
    quoteReference: payment.quoteReference,
    bankAccount: payment.kind === 'invoice' ? (input.bankAccounts[payment.currency] ?? null) : null,
    providerInvoiceId: payment.invoiceId,
    ...(payment.currency === 'EUR'
      ? {}
      : { eur: input.eurRate ? euroAmountsAt(amounts, input.eurRate) : null }),
  };
}

/**
 * The lines of a payment: the quote's lines of what was bought (Pro's base price and its further
 * orgs as two lines, decision 218) when they add up to the amount charged, else one line of the
 * amount (a prorated change, a free plan). Each line names the service period.
 */
function documentLines(payment: DocumentablePayment, period: string): PaymentDocument['lines'] {
  const order = payment.order;
  if (order && order.edition !== 'Starter') {
    try {
      const priced = priceQuote({ ...order, edition: order.edition, currency: payment.currency });
      if (priced.totalCents === payment.netMinor) {
        return priced.lines.map((line) => ({
          description: line.description,
          detail: `${line.detail}. ${period}`,
          quantity: line.quantity,
          unitMinor: line.unitCents,
          amountMinor: line.amountCents,
        }));
      }
    } catch {
      // A size the engine no longer sells as this edition: one line of the amount charged.
    }
  }
  return [
    {
      description: payment.description,
      detail: period,
      quantity: 1,
      unitMinor: payment.netMinor,
      amountMinor: payment.netMinor,
    },
  ];
}

/** A link to a payment's document for an e-mail: ours (numbered) or the provider's own. */
export interface DocumentLink {
  /** Our number; null for the provider's own document (Stripe's). */
  number: string | null;
  kind: DocumentKind;
  url: string;
}

/** The document's kind in words: `invoice`, `receipt`, `credit note`. */
export function documentNoun(kind: DocumentKind): string {
  return kind === 'credit_note' ? 'credit note' : kind;
}

/** How an e-mail names the link. */
export function documentLinkLabel(link: DocumentLink): string {
  const noun = documentNoun(link.kind);
  return link.number ? `Download ${noun} ${link.number} (PDF)` : `View your ${noun}`;
}
