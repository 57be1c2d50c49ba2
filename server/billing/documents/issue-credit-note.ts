import { calendarDateIn } from '#server/billing/calendar-date.ts';
import type { Executor } from '#server/platform/db/database.ts';
import { siteConfig } from '#shared/site-config.ts';
import { euroAmountsAt } from '#server/billing/fx-rates/euro-amounts.ts';
import type { IssuedDocument } from './issue-payment-documents.ts';
import {
  formatDocumentNumber,
  paymentDocumentSchema,
  type PaymentDocument,
} from './payment-document.ts';
import {
  createPaymentDocumentRepository,
  type StoredPaymentDocument,
} from './payment-document-repository.ts';

/**
 * Credit notes (decision 220): the document that takes back all or part of an invoice or receipt,
 * for a refund of money paid or the cancellation of an amount still owed. It reverses the
 * original's VAT at the original's rate and VAT decision; its amounts are positive (the document
 * says it is a credit) and it is numbered `CN-YYYY-NNNNN`, gap-free per year, in the caller's
 * transaction.
 */

/** What is left to credit of an invoice or receipt: its figures less its credit notes'. */
export interface CreditableRest {
  netMinor: number;
  vatMinor: number;
  grossMinor: number;
}

export function creditableRest(
  original: Pick<StoredPaymentDocument, 'netMinor' | 'vatMinor' | 'grossMinor'>,
  creditNotes: ReadonlyArray<Pick<StoredPaymentDocument, 'netMinor' | 'vatMinor' | 'grossMinor'>>,
): CreditableRest {
  const sum = (pick: (row: (typeof creditNotes)[number]) => number) =>
    creditNotes.reduce((total, row) => total + pick(row), 0);
  return {
    netMinor: original.netMinor - sum((row) => row.netMinor),
    vatMinor: original.vatMinor - sum((row) => row.vatMinor),
    grossMinor: original.grossMinor - sum((row) => row.grossMinor),
  };
}

/**
 * Splits a gross amount to credit into net and VAT in the original's proportion (so at its rate,
 * 0 % for a reverse charge or an export); the last credit takes exactly what is left, so the
 * credit notes of a fully credited document add up to it to the cent.
 */
export function splitCredit(
  grossMinor: number,
  original: Pick<StoredPaymentDocument, 'netMinor' | 'grossMinor'>,
  rest: CreditableRest,
): { netMinor: number; vatMinor: number; grossMinor: number } {
  if (!Number.isSafeInteger(grossMinor) || grossMinor <= 0 || grossMinor > rest.grossMinor) {
    throw new RangeError(`cannot credit ${grossMinor} of ${rest.grossMinor}`);
  }
  if (grossMinor === rest.grossMinor) {
    return { netMinor: rest.netMinor, vatMinor: rest.vatMinor, grossMinor };
  }
  let netMinor = Math.round((grossMinor * original.netMinor) / original.grossMinor);
  let vatMinor = grossMinor - netMinor;
  // Never more VAT (or net) than is left to reverse.
  if (vatMinor > rest.vatMinor) {
    vatMinor = rest.vatMinor;
    netMinor = grossMinor - vatMinor;
  }
  if (netMinor > rest.netMinor) {
    netMinor = rest.netMinor;
    vatMinor = grossMinor - netMinor;
  }
  return { netMinor, vatMinor, grossMinor };
}

export interface CreditNoteInput {
  /** The invoice or receipt, locked by the caller (`lockByNumber`). */
  original: StoredPaymentDocument;
  /** The gross amount credited: at most what is left of the original. */
  grossMinor: number;
  /** `refund`: money paid is paid back; `cancellation`: an amount owed is no longer owed. */
  action: 'refund' | 'cancellation';
  reason: string;
  /** The provider's id of its credit (the local provider's `lcn_…`). */
  providerCreditId: string;
  idempotencyKey: string;
  now: Date;
}

/** The credit note of `input`, numbered and stored in the caller's transaction. */
export async function issueCreditNote(
  tx: Executor,
  input: CreditNoteInput,
): Promise<IssuedDocument> {
  const repository = createPaymentDocumentRepository(tx);
  const replayed = await repository.findByIdempotencyKey(input.idempotencyKey);
  if (replayed) {
    return {
      number: replayed.number,
      document: paymentDocumentSchema.parse(replayed.document),
      created: false,
      paidNow: false,
    };
  }
  const { original } = input;
  if (original.kind === 'credit_note') throw new Error('a credit note is not credited');
  const originalDocument = paymentDocumentSchema.parse(original.document);
  const rest = creditableRest(original, await repository.creditNotesOf(original.number));
  const amounts = splitCredit(input.grossMinor, original, rest);
  const day = (instant: Date) => calendarDateIn(instant, siteConfig.company.timeZone);
  const year = Number(day(input.now).slice(0, 4));
  const sequence = await repository.nextSequence(year, 'CN');
  const number = formatDocumentNumber(year, sequence, 'CN');
  const paidBy = originalDocument.payment.method === 'card' ? 'card' : 'bank-transfer';
  const document: PaymentDocument = {
    number,
    kind: 'credit_note',
    issuedOn: day(input.now),
    seller: originalDocument.seller,
    buyer: originalDocument.buyer,
    lines: [
      {
        description: `Credit for ${originalDocument.kind} ${original.number}: ${originalDocument.lines
          .map((line) => line.description)
          .join('; ')}`,
        detail: originalDocument.lines.map((line) => line.detail).join('; '),
        quantity: 1,
        unitMinor: amounts.netMinor,
        amountMinor: amounts.netMinor,
      },
    ],
    currency: originalDocument.currency,
    netMinor: amounts.netMinor,
    vat: originalDocument.vat,
    vatMinor: amounts.vatMinor,
    grossMinor: amounts.grossMinor,
    // A dollar original's VAT in euros is reversed at the rate it froze (decision 221).
    ...(originalDocument.eur === undefined
      ? {}
      : {
          eur: originalDocument.eur
            ? euroAmountsAt(amounts, {
                currency: originalDocument.currency,
                rateOn: originalDocument.eur.rateOn,
                perEur: originalDocument.eur.perEur,
                source: originalDocument.eur.source,
              })
            : null,
        }),
    payment:
      input.action === 'refund'
        ? { method: 'refund', refundedOn: day(input.now), to: paidBy }
        : { method: 'cancellation', cancelledOn: day(input.now) },
    purchaseOrder: originalDocument.purchaseOrder,
    quoteReference: originalDocument.quoteReference,
    providerInvoiceId: input.providerCreditId,
    credits: {
      number: original.number,
      kind: original.kind,
      issuedOn: originalDocument.issuedOn,
      grossMinor: original.grossMinor,
    },
    reason: input.reason,
  };
  await repository.insert({
    number,
    year,
    sequence,
    kind: 'credit_note',
    provider: original.provider,
    providerInvoiceId: input.providerCreditId,
    subscriptionId: original.subscriptionId,
    buyerEmail: original.buyerEmail,
    issuedOn: document.issuedOn,
    currency: document.currency,
    netMinor: amounts.netMinor,
    vatRatePercent: original.vatRatePercent,
    vatMinor: amounts.vatMinor,
    grossMinor: amounts.grossMinor,
    document,
    createdAt: input.now,
    creditsNumber: original.number,
    idempotencyKey: input.idempotencyKey,
  });
  return { number, document, created: true, paidNow: false };
}
