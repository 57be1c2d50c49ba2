import { createHash } from 'node:crypto';
import { creditPaymentDocument } from '#server/billing/documents/credit-payment-document.ts';
import { paymentDocumentUrl } from '#server/billing/documents/payment-document-link.ts';
import { parseDocumentNumber } from '#server/billing/documents/payment-document.ts';
import { createPaymentDocumentRepository } from '#server/billing/documents/payment-document-repository.ts';
import { findPaymentDocumentStanding } from '#server/billing/documents/read-payment-document.ts';
import { isPaymentError } from '#server/billing/subscriptions/payment-errors.ts';
import type { ProviderInvoice } from '#server/billing/subscriptions/payment-types.ts';
import {
  syncSubscription,
  type SyncDeps,
} from '#server/billing/subscriptions/sync-subscription.ts';
import type { Currency } from '#shared/pricing/index.ts';

/**
 * Refunds (decision 220): all or part of a paid invoice or receipt goes back to the buyer, through
 * the provider, with a credit note for the amount. One refund per action: the action's
 * idempotency key is its document, its amount (or "the rest") and its reason, so running the same
 * command twice makes one refund and answers the second time with the first's credit note. A
 * refund that leaves nothing of the subscription's latest payment ends the subscription and its
 * licence at once (the buyer has the money back); a partial refund, or one of an earlier period's
 * payment, keeps them.
 */

/** A refund's reason is printed on its credit note: at most this long. */
export const REFUND_REASON_MAX_LENGTH = 200;

export type RefundRefusalCode =
  /** No such invoice or receipt (or a credit note, which is not refunded). */
  | 'NotFound'
  /** Not paid: nothing to refund; an unpaid invoice is cancelled instead. */
  | 'NotPaid'
  /** More than is left to refund, or nothing is. */
  | 'TooMuch'
  /** A document of the other provider than the one this service runs. */
  | 'OtherProvider';

export type RefundResult =
  | {
      ok: true;
      /** Asked before with the same document, amount and reason: nothing new was refunded. */
      replayed: boolean;
      reference: string;
      amountMinor: number | null;
      currency: Currency | null;
      /** Our credit note (local) or the provider's (Stripe's number and PDF). */
      creditNote: { number: string | null; url: string | null };
      /** The subscription ended by a full refund of its latest payment. */
      endedSubscription: string | null;
    }
  | { ok: false; code: RefundRefusalCode; detail: string };

export interface RefundRequest {
  /** Our document number (`INV-…`), or the provider's invoice number or id (Stripe's). */
  reference: string;
  /** Gross, in minor units; null: all that is left. */
  amountMinor: number | null;
  reason: string;
}

/** The action's key: the same document, amount and reason are the same refund. */
export function refundKey(request: RefundRequest): string {
  const reason = createHash('sha256').update(request.reason.trim()).digest('hex').slice(0, 16);
  return `refund:${request.reference}:${request.amountMinor ?? 'rest'}:${reason}`;
}

const notPaid = (reference: string) =>
  ({
    ok: false,
    code: 'NotPaid',
    detail: `${reference} is not paid: there is nothing to refund. An unpaid invoice is cancelled, not refunded: \`invoice-orders cancel <order>\` credits what is owed.`,
  }) as const;

const tooMuch = (reference: string, left: string) =>
  ({
    ok: false,
    code: 'TooMuch',
    detail: `${reference} has ${left} left to refund: nothing was refunded.`,
  }) as const;

function money(minor: number, currency: Currency): string {
  return `${currency} ${(minor / 100).toFixed(2)}`;
}

/** Ends the subscription when a refund left nothing of its latest payment. */
async function endIfWhollyRefunded(
  deps: SyncDeps,
  invoice: ProviderInvoice,
): Promise<string | null> {
  if (!invoice.latest || !invoice.subscriptionId) return null;
  if (invoice.status === 'paid' && invoice.refundableMinor > 0) return null;
  await deps.payments.cancelSubscription(invoice.subscriptionId);
  await syncSubscription(deps, invoice.subscriptionId);
  return invoice.subscriptionId;
}

type Refusal = Extract<RefundResult, { ok: false }>;

/** One of our documents that may be refunded, and the provider's invoice behind it; or why not. */
async function findOurDocument(deps: SyncDeps, number: string) {
  const found = await findPaymentDocumentStanding(deps.db, number);
  if (!found || found.document.kind === 'credit_note') {
    return { ok: false, code: 'NotFound', detail: `No invoice or receipt ${number}.` } as const;
  }
  const row = await createPaymentDocumentRepository(deps.db).findByNumber(number);
  if (!row || row.provider !== deps.payments.name) {
    return {
      ok: false,
      code: 'OtherProvider',
      detail: `${number} was paid through the ${row?.provider ?? 'other'} provider; this service runs ${deps.payments.name}.`,
    } as const;
  }
  return { ok: true, row, ...found } as const;
}

/** A refund of one of our documents (the local provider's invoices and receipts). */
async function refundDocument(
  deps: SyncDeps,
  request: RefundRequest,
  number: string,
): Promise<RefundResult> {
  const found = await findOurDocument(deps, number);
  if (!found.ok) return found;
  const { row } = found;
  const key = refundKey(request);
  const url = (credit: string) => paymentDocumentUrl(deps.publicBaseUrl, deps.secretKey, credit);
  const replayed = await createPaymentDocumentRepository(deps.db).findByIdempotencyKey(key);
  const { document, standing } = found;
  if (!replayed) {
    if (standing.paidOn === null) return notPaid(number);
    const amount = request.amountMinor ?? standing.refundableMinor;
    if (standing.refundableMinor === 0 || amount > standing.refundableMinor) {
      return tooMuch(number, money(standing.refundableMinor, document.currency));
    }
  }
  const amount = request.amountMinor ?? standing.refundableMinor;
  let note;
  try {
    note = await creditPaymentDocument(deps, {
      number,
      grossMinor: replayed ? replayed.grossMinor : amount,
      action: 'refund',
      reason: request.reason.trim(),
      idempotencyKey: key,
    });
  } catch (error) {
    // Another refund took the rest meanwhile: the provider, under its lock, refused this one.
    if (!isPaymentError(error, 'CreditRefused')) throw error;
    const now = await findPaymentDocumentStanding(deps.db, number);
    return tooMuch(number, money(now?.standing.refundableMinor ?? 0, document.currency));
  }
  const endedSubscription = note.created
    ? await endIfWhollyRefunded(deps, await deps.payments.retrieveInvoice(row.providerInvoiceId))
    : null;
  return {
    ok: true,
    replayed: !note.created,
    reference: number,
    amountMinor: note.document.grossMinor,
    currency: note.document.currency,
    creditNote: { number: note.number, url: url(note.number) },
    endedSubscription,
  };
}

/** A refund of the provider's own invoice (Stripe's: Stripe makes its credit note). */
async function refundProviderInvoice(
  deps: SyncDeps,
  request: RefundRequest,
): Promise<RefundResult> {
  let invoice: ProviderInvoice;
  try {
    invoice = await deps.payments.retrieveInvoice(request.reference);
  } catch (error) {
    if (isPaymentError(error, 'NotFound')) {
      return { ok: false, code: 'NotFound', detail: `No invoice or receipt ${request.reference}.` };
    }
    throw error;
  }
  // An invoice we numbered ourselves is refunded as our document, with our credit note.
  const ours = await createPaymentDocumentRepository(deps.db).findByProviderInvoice(
    deps.payments.name,
    invoice.invoiceId,
  );
  if (ours && ours.kind !== 'credit_note') {
    return refundDocument(deps, { ...request, reference: ours.number }, ours.number);
  }
  if (invoice.status !== 'paid') return notPaid(request.reference);
  const amount = request.amountMinor ?? invoice.refundableMinor;
  let credit;
  try {
    credit = await deps.payments.creditInvoice({
      invoiceId: invoice.invoiceId,
      amountMinor: amount,
      refund: true,
      reason: request.reason.trim(),
      idempotencyKey: refundKey(request),
    });
  } catch (error) {
    if (isPaymentError(error, 'CreditRefused')) {
      return invoice.status === 'paid'
        ? tooMuch(request.reference, money(invoice.refundableMinor, invoice.currency))
        : notPaid(request.reference);
    }
    throw error;
  }
  const endedSubscription = credit.replayed
    ? null
    : await endIfWhollyRefunded(deps, await deps.payments.retrieveInvoice(invoice.invoiceId));
  return {
    ok: true,
    replayed: credit.replayed,
    reference: invoice.number,
    amountMinor: credit.replayed ? null : amount,
    currency: invoice.currency,
    creditNote: { number: credit.number, url: credit.pdfUrl },
    endedSubscription,
  };
}

/** Refused before anything is looked up: not a positive amount, or a credit note named. */
function refusedOutright(request: RefundRequest): Refusal | undefined {
  if (request.amountMinor !== null && request.amountMinor <= 0) {
    return { ok: false, code: 'TooMuch', detail: 'A refund is a positive amount.' };
  }
  if (parseDocumentNumber(request.reference)?.series === 'CN') {
    return {
      ok: false,
      code: 'NotFound',
      detail: `${request.reference} is a credit note: refund the invoice or receipt it corrects.`,
    };
  }
  return undefined;
}

export async function refundPayment(deps: SyncDeps, request: RefundRequest): Promise<RefundResult> {
  const refused = refusedOutright(request);
  if (refused) return refused;
  if (parseDocumentNumber(request.reference)) {
    return refundDocument(deps, request, request.reference);
  }
  return refundProviderInvoice(deps, request);
}

/** What a refund would do, before it is made (the console shows it before the operator confirms). */
export interface RefundPreview {
  /** The document refunded: ours (`INV-…`) or the provider's invoice number. */
  reference: string;
  currency: Currency;
  /** What was paid for it, gross. */
  paidMinor: number;
  /** What is left to refund now. */
  refundableMinor: number;
  /** What this refund pays back: the amount asked for, or the rest. */
  amountMinor: number;
  /** Who issues the credit note: us (`CN-…`, e-mailed) or the provider (Stripe's). */
  creditNoteBy: 'us' | 'provider';
  /** The subscription the payment was for, if any. */
  subscriptionId: string | null;
  /**
   * The refund leaves nothing of the subscription's latest payment, so the subscription and its
   * licence end at once (the rule `endIfWhollyRefunded` applies after the refund).
   */
  endsSubscription: boolean;
}

function previewOf(
  invoice: ProviderInvoice,
  fields: Omit<RefundPreview, 'subscriptionId' | 'endsSubscription'>,
): RefundPreview {
  return {
    ...fields,
    subscriptionId: invoice.subscriptionId,
    endsSubscription:
      invoice.latest &&
      invoice.subscriptionId !== null &&
      fields.amountMinor >= fields.refundableMinor,
  };
}

/**
 * What `refundPayment` would do with `request` now, refusing exactly what it refuses (unknown
 * document, unpaid, more than the rest, the other provider), and changing nothing.
 */
export async function previewRefund(
  deps: SyncDeps,
  request: RefundRequest,
): Promise<{ ok: true; preview: RefundPreview } | Refusal> {
  const refused = refusedOutright(request);
  if (refused) return refused;
  if (parseDocumentNumber(request.reference)) {
    const found = await findOurDocument(deps, request.reference);
    if (!found.ok) return found;
    const { document, standing, row } = found;
    if (standing.paidOn === null) return notPaid(row.number);
    const amount = request.amountMinor ?? standing.refundableMinor;
    if (standing.refundableMinor === 0 || amount > standing.refundableMinor) {
      return tooMuch(row.number, money(standing.refundableMinor, document.currency));
    }
    const invoice = await deps.payments.retrieveInvoice(row.providerInvoiceId);
    return {
      ok: true,
      preview: previewOf(invoice, {
        reference: row.number,
        currency: document.currency,
        paidMinor: document.grossMinor,
        refundableMinor: standing.refundableMinor,
        amountMinor: amount,
        creditNoteBy: 'us',
      }),
    };
  }
  let invoice: ProviderInvoice;
  try {
    invoice = await deps.payments.retrieveInvoice(request.reference);
  } catch (error) {
    if (isPaymentError(error, 'NotFound')) {
      return { ok: false, code: 'NotFound', detail: `No invoice or receipt ${request.reference}.` };
    }
    throw error;
  }
  const ours = await createPaymentDocumentRepository(deps.db).findByProviderInvoice(
    deps.payments.name,
    invoice.invoiceId,
  );
  if (ours && ours.kind !== 'credit_note') {
    return previewRefund(deps, { ...request, reference: ours.number });
  }
  if (invoice.status !== 'paid') return notPaid(request.reference);
  const amount = request.amountMinor ?? invoice.refundableMinor;
  if (invoice.refundableMinor === 0 || amount > invoice.refundableMinor) {
    return tooMuch(request.reference, money(invoice.refundableMinor, invoice.currency));
  }
  return {
    ok: true,
    preview: previewOf(invoice, {
      reference: invoice.number,
      currency: invoice.currency,
      paidMinor: invoice.totalMinor,
      refundableMinor: invoice.refundableMinor,
      amountMinor: amount,
      creditNoteBy: 'provider',
    }),
  };
}
