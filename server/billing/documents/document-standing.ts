import { calendarDateIn } from '#server/billing/calendar-date.ts';
import { siteConfig } from '#shared/site-config.ts';
import { creditableRest } from './issue-credit-note.ts';
import { paymentDocumentSchema, type PaymentDocument } from './payment-document.ts';
import type { StoredPaymentDocument } from './payment-document-repository.ts';

/**
 * Where an invoice or receipt stands now (decision 220): paid or owed, and what its credit notes
 * took back. The document stays as issued; this is read beside it.
 */
export type DocumentStatus =
  /** An invoice not paid and not wholly credited. */
  | 'open'
  /** Paid; nothing refunded. */
  | 'paid'
  /** Paid, and part of it refunded. */
  | 'partly refunded'
  /** Paid, and all of it refunded. */
  | 'refunded'
  /** Never paid, and all of it credited: closed, nothing owed. */
  | 'credited'
  /** A credit note. */
  | 'issued';

export interface DocumentStanding {
  status: DocumentStatus;
  /** The day the money arrived (the seller's calendar); null while owed. */
  paidOn: string | null;
  /** Left to pay: the gross less its credit notes, while unpaid; 0 once paid or credited. */
  owedMinor: number;
  /** Left to refund of money paid: the gross less its credit notes, once paid. */
  refundableMinor: number;
  /** The gross of its credit notes. */
  creditedMinor: number;
  /** Its credit notes' numbers, oldest first. */
  creditNotes: string[];
}

export function documentStanding(
  row: StoredPaymentDocument,
  creditNotes: readonly StoredPaymentDocument[],
): DocumentStanding {
  const paidOn = row.paidAt ? calendarDateIn(row.paidAt, siteConfig.company.timeZone) : null;
  if (row.kind === 'credit_note') {
    return {
      status: 'issued',
      paidOn: null,
      owedMinor: 0,
      refundableMinor: 0,
      creditedMinor: 0,
      creditNotes: [],
    };
  }
  const rest = creditableRest(row, creditNotes).grossMinor;
  const creditedMinor = row.grossMinor - rest;
  const paid = row.paidAt !== null;
  const status: DocumentStatus = paid
    ? rest === 0
      ? 'refunded'
      : creditedMinor > 0
        ? 'partly refunded'
        : 'paid'
    : rest === 0
      ? 'credited'
      : 'open';
  return {
    status,
    paidOn,
    owedMinor: paid ? 0 : rest,
    refundableMinor: paid ? rest : 0,
    creditedMinor,
    creditNotes: creditNotes.map((note) => note.number),
  };
}

/**
 * The document as its PDF shows it now: as issued, with the day its money arrived (an invoice
 * issued unpaid and paid since says so, as a provider's hosted invoice does).
 */
export function documentAsOfNow(row: StoredPaymentDocument): PaymentDocument {
  const document = paymentDocumentSchema.parse(row.document);
  if (document.payment.method !== 'bank-transfer' || document.payment.paidOn || !row.paidAt) {
    return document;
  }
  return {
    ...document,
    payment: {
      ...document.payment,
      paidOn: calendarDateIn(row.paidAt, siteConfig.company.timeZone),
    },
  };
}
