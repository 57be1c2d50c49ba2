import type { Executor } from '#server/platform/db/database.ts';
import { isPaymentDocumentToken } from './payment-document-link.ts';
import {
  parseDocumentNumber,
  paymentDocumentSchema,
  type PaymentDocument,
} from './payment-document.ts';
import { createPaymentDocumentRepository } from './payment-document-repository.ts';

/** The stored document numbered `number`, if any (the operator's view: no token). */
export async function findPaymentDocument(
  db: Executor,
  number: string,
): Promise<PaymentDocument | undefined> {
  if (!parseDocumentNumber(number)) return undefined;
  const row = await createPaymentDocumentRepository(db).findByNumber(number);
  return row ? paymentDocumentSchema.parse(row.document) : undefined;
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
