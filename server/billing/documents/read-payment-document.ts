import type { Executor } from '#server/platform/db/database.ts';
import { documentAsOfNow, documentStanding, type DocumentStanding } from './document-standing.ts';
import { isPaymentDocumentToken } from './payment-document-link.ts';
import { parseDocumentNumber, type PaymentDocument } from './payment-document.ts';
import { createPaymentDocumentRepository } from './payment-document-repository.ts';

/**
 * The stored document numbered `number`, if any (the operator's view: no token), as it stands
 * now: an invoice paid since it was issued says when.
 */
export async function findPaymentDocument(
  db: Executor,
  number: string,
): Promise<PaymentDocument | undefined> {
  if (!parseDocumentNumber(number)) return undefined;
  const row = await createPaymentDocumentRepository(db).findByNumber(number);
  return row ? documentAsOfNow(row) : undefined;
}

/** The document with where it stands: paid or owed, its credit notes (decision 220). */
export async function findPaymentDocumentStanding(
  db: Executor,
  number: string,
): Promise<{ document: PaymentDocument; standing: DocumentStanding } | undefined> {
  if (!parseDocumentNumber(number)) return undefined;
  const repository = createPaymentDocumentRepository(db);
  const row = await repository.findByNumber(number);
  if (!row) return undefined;
  const creditNotes = row.kind === 'credit_note' ? [] : await repository.creditNotesOf(number);
  return { document: documentAsOfNow(row), standing: documentStanding(row, creditNotes) };
}

/**
 * The document numbered `number` when `token` is its link's signature, else undefined: a guessed
 * number, another document's token and an unknown number look alike to the caller (404).
 */
export async function readPaymentDocument(
  deps: { db: Executor; secretKey: string },
  number: string,
  token: string | undefined,
): Promise<PaymentDocument | undefined> {
  if (!token || !parseDocumentNumber(number)) return undefined;
  if (!isPaymentDocumentToken(deps.secretKey, number, token)) return undefined;
  return findPaymentDocument(deps.db, number);
}
