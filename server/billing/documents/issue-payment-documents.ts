import { calendarDateIn } from '#server/billing/calendar-date.ts';
import type { Executor } from '#server/platform/db/database.ts';
import { siteConfig } from '#shared/site-config.ts';
import {
  buildPaymentDocument,
  formatDocumentNumber,
  type DocumentablePayment,
  paymentDocumentSchema,
  type PaymentDocument,
} from './payment-document.ts';
import { createPaymentDocumentRepository } from './payment-document-repository.ts';

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
    const year = Number(calendarDateIn(input.now, siteConfig.company.timeZone).slice(0, 4));
    const sequence = await repository.nextSequence(year, 'INV');
    const number = formatDocumentNumber(year, sequence);
    const document = buildPaymentDocument({
      payment,
      number,
      now: input.now,
      publicBaseUrl: input.publicBaseUrl,
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
