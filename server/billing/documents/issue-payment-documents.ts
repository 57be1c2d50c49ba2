import { createFxRateRepository } from '#server/billing/fx-rates/fx-rate-repository.ts';
import type { Executor } from '#server/platform/db/database.ts';
import type { BankAccounts } from '#server/billing/bank-accounts.ts';
import {
  buildPaymentDocument,
  formatDocumentNumber,
  issueDayOf,
  parseDocumentNumber,
  type DocumentablePayment,
  paymentDocumentSchema,
  type PaymentDocument,
} from './payment-document.ts';
import { createPaymentDocumentRepository } from './payment-document-repository.ts';

/**
 * The next number of the series (`INV-YYYY-NNNNN`, the year in the seller's calendar), taken in
 * the caller's transaction: a rollback gives it back. The local provider takes its invoice's
 * number here when it sends one (decision 218), the document keeps it.
 */
export async function takeDocumentNumber(
  tx: Executor,
  now: Date,
): Promise<{ number: string; year: number; sequence: number }> {
  const year = Number(issueDayOf(now).slice(0, 4));
  const sequence = await createPaymentDocumentRepository(tx).nextSequence(year, 'INV');
  return { number: formatDocumentNumber(year, sequence), year, sequence };
}

export interface IssuedDocument {
  number: string;
  document: PaymentDocument;
  /** Made by this call (false: it existed already, e.g. a replayed event). */
  created: boolean;
  /**
   * An invoice whose payment this call recorded (it was issued unpaid before): the buyer gets a
   * payment confirmation (decision 220).
   */
  paidNow: boolean;
}

/**
 * Issues the document of each payment that has none yet, oldest first, in the caller's
 * transaction (the sync's, serialised per subscription): the number is taken from the year's
 * counter in that same transaction, so a rollback leaves no gap, and a payment documented before
 * (a replayed or repeated event) keeps its one document and takes no number. Payments of nothing
 * (a free plan) get none. Returns the documents of `payments`, new and old.
 */
export async function issuePaymentDocuments(
  tx: Executor,
  input: {
    provider: string;
    subscriptionId: string;
    payments: readonly DocumentablePayment[];
    now: Date;
    publicBaseUrl: string;
    bankAccounts: BankAccounts;
  },
): Promise<IssuedDocument[]> {
  const repository = createPaymentDocumentRepository(tx);
  const issued: IssuedDocument[] = [];
  const ordered = [...input.payments].sort(
    (a, b) => a.issuedAt.getTime() - b.issuedAt.getTime() || a.invoiceId.localeCompare(b.invoiceId),
  );
  for (const payment of ordered) {
    if (payment.netMinor <= 0) continue;
    const existing = await repository.findByProviderInvoice(input.provider, payment.invoiceId);
    if (existing) {
      const document = paymentDocumentSchema.parse(existing.document);
      const paidNow =
        payment.paidAt !== null &&
        existing.paidAt === null &&
        (await repository.markPaid(existing.number, payment.paidAt));
      issued.push({ number: existing.number, document, created: false, paidNow });
      continue;
    }
    // The number the provider printed already (ours, taken when it was sent), else the next.
    const printed = payment.number ? parseDocumentNumber(payment.number) : null;
    const { number, year, sequence } =
      printed && payment.number
        ? { number: payment.number, ...printed }
        : await takeDocumentNumber(tx, input.now);
    // A document in dollars states its VAT in euros at the rate known when it is issued
    // (decision 221): the latest recorded on or before its day, copied into it for good.
    const eurRate =
      payment.currency === 'EUR'
        ? null
        : ((await createFxRateRepository(tx).latestOnOrBefore(
            payment.currency,
            issueDayOf(input.now),
          )) ?? null);
    const document = buildPaymentDocument({
      payment,
      number,
      now: input.now,
      publicBaseUrl: input.publicBaseUrl,
      eurRate,
      bankAccounts: input.bankAccounts,
    });
    await repository.insert({
      number,
      year,
      sequence,
      kind: document.kind,
      provider: input.provider,
      providerInvoiceId: payment.invoiceId,
      subscriptionId: input.subscriptionId,
      buyerEmail: payment.buyer.email,
      issuedOn: document.issuedOn,
      currency: document.currency,
      netMinor: document.netMinor,
      vatRatePercent: document.vat.ratePercent,
      vatMinor: document.vatMinor,
      grossMinor: document.grossMinor,
      document,
      createdAt: input.now,
      paidAt: payment.kind === 'receipt' ? (payment.paidAt ?? payment.issuedAt) : payment.paidAt,
    });
    issued.push({ number, document, created: true, paidNow: false });
  }
  return issued;
}
