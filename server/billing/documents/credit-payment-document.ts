import type { SyncDeps } from '#server/billing/subscriptions/sync-subscription.ts';
import { createOutboxRepository } from '#server/platform/email/outbox-repository.ts';
import { paymentDocumentEmail } from './emails/payment-document-email.ts';
import { issueCreditNote } from './issue-credit-note.ts';
import type { IssuedDocument } from './issue-payment-documents.ts';
import { paymentDocumentUrl } from './payment-document-link.ts';
import { paymentDocumentSchema } from './payment-document.ts';
import { createPaymentDocumentRepository } from './payment-document-repository.ts';

export type CreditDeps = Pick<
  SyncDeps,
  'db' | 'payments' | 'clock' | 'secretKey' | 'publicBaseUrl' | 'wakeOutbox'
>;

/**
 * Credits one of our invoices or receipts (decision 220): the provider first (its refund or its
 * credit of the open invoice, under the action's idempotency key, so a repeat makes none twice),
 * then, in one transaction under the document's row lock, the credit note and its e-mail to the
 * buyer. Asked again with the same key, it answers the credit note made the first time; a run cut
 * off between the two steps is completed by the next (the provider replays its credit).
 */
export async function creditPaymentDocument(
  deps: CreditDeps,
  input: {
    number: string;
    grossMinor: number;
    action: 'refund' | 'cancellation';
    reason: string;
    idempotencyKey: string;
  },
): Promise<IssuedDocument> {
  const documents = createPaymentDocumentRepository(deps.db);
  const replayed = await documents.findByIdempotencyKey(input.idempotencyKey);
  if (replayed) {
    return {
      number: replayed.number,
      document: paymentDocumentSchema.parse(replayed.document),
      created: false,
      paidNow: false,
    };
  }
  const original = await documents.findByNumber(input.number);
  if (!original) throw new Error(`no document ${input.number}`);
  const credit = await deps.payments.creditInvoice({
    invoiceId: original.providerInvoiceId,
    amountMinor: input.grossMinor,
    refund: input.action === 'refund',
    reason: input.reason,
    idempotencyKey: input.idempotencyKey,
  });
  const issued = await deps.db.transaction(async (tx) => {
    const locked = await createPaymentDocumentRepository(tx).lockByNumber(input.number);
    if (!locked) throw new Error(`no document ${input.number}`);
    const now = deps.clock();
    const note = await issueCreditNote(tx, {
      original: locked,
      grossMinor: input.grossMinor,
      action: input.action,
      reason: input.reason,
      providerCreditId: credit.creditId,
      idempotencyKey: input.idempotencyKey,
      now,
    });
    if (note.created) {
      await createOutboxRepository(tx).enqueue(
        {
          kind: 'payment-credit-note',
          to: note.document.buyer.email,
          ...paymentDocumentEmail({
            document: note.document,
            url: paymentDocumentUrl(deps.publicBaseUrl, deps.secretKey, note.number),
            publicBaseUrl: deps.publicBaseUrl,
          }),
        },
        now,
      );
    }
    return note;
  });
  if (issued.created) deps.wakeOutbox();
  return issued;
}
