import type { Database } from '#server/platform/db/database.ts';
import { vatOfPayment } from '#server/billing/documents/payment-document.ts';
import { PaymentError } from '#server/billing/subscriptions/payment-errors.ts';
import type {
  CreditInvoiceInput,
  ProviderCredit,
  ProviderInvoice,
} from '#server/billing/subscriptions/payment-types.ts';
import { vatAmounts } from '#shared/pricing/vat.ts';
import {
  createLocalPaymentRepository,
  type LocalCredit,
  type LocalInvoice,
} from './local-payment-repository.ts';

/**
 * The local provider's credit notes (decision 220), as Stripe's: a credit of an open invoice
 * lowers what is owed and closes it (void) once nothing is; a credit of a paid invoice or card
 * charge is refunded. Never more than is left; once per idempotency key.
 */

/** What the invoice asks for, with VAT: its amount is net (decision 180). */
function totalOf(invoice: LocalInvoice): number {
  return vatAmounts(invoice.amount, vatOfPayment(invoice)).grossMinor;
}

function viewOf(
  invoice: LocalInvoice,
  credits: readonly LocalCredit[],
  latest: boolean,
): ProviderInvoice {
  const total = totalOf(invoice);
  const credited = credits.reduce((sum, credit) => sum + credit.amount, 0);
  const refunded = credits.reduce((sum, credit) => sum + credit.refunded, 0);
  const status = invoice.status === 'paid' ? 'paid' : invoice.status === 'open' ? 'open' : 'closed';
  return {
    invoiceId: invoice.id,
    number: invoice.number ?? invoice.id,
    subscriptionId: invoice.subscriptionId,
    status,
    currency: invoice.currency,
    totalMinor: total,
    remainingMinor: status === 'open' ? Math.max(0, total - credited) : 0,
    refundableMinor: status === 'paid' ? Math.max(0, total - refunded) : 0,
    latest,
  };
}

async function isLatest(db: Database, invoice: LocalInvoice): Promise<boolean> {
  const [newest] = await createLocalPaymentRepository(db).invoicesOf(invoice.subscriptionId);
  return newest?.id === invoice.id;
}

export async function retrieveLocalInvoice(
  db: Database,
  idOrNumber: string,
): Promise<ProviderInvoice> {
  const repository = createLocalPaymentRepository(db);
  const invoice = await repository.findInvoice(idOrNumber);
  if (!invoice) throw new PaymentError('NotFound', `No local invoice ${idOrNumber}`);
  return viewOf(invoice, await repository.creditsOf(invoice.id), await isLatest(db, invoice));
}

export async function listOpenLocalInvoices(
  db: Database,
  subscriptionId: string,
): Promise<ProviderInvoice[]> {
  const repository = createLocalPaymentRepository(db);
  const invoices = await repository.invoicesOf(subscriptionId);
  const open: ProviderInvoice[] = [];
  for (const [index, invoice] of invoices.entries()) {
    if (invoice.status !== 'open' || invoice.dueAt === null) continue;
    open.push(viewOf(invoice, await repository.creditsOf(invoice.id), index === 0));
  }
  return open;
}

export async function creditLocalInvoice(
  deps: { db: Database; clock: () => Date },
  input: CreditInvoiceInput,
): Promise<ProviderCredit> {
  const now = deps.clock();
  return deps.db.transaction(async (tx) => {
    const repository = createLocalPaymentRepository(tx);
    const invoice = await repository.lockInvoice(input.invoiceId);
    if (!invoice) throw new PaymentError('NotFound', `No local invoice ${input.invoiceId}`);
    const replay = await repository.findCreditByKey(input.idempotencyKey);
    if (replay) {
      if (replay.invoiceId !== invoice.id) {
        throw new PaymentError('CreditRefused', 'This idempotency key was used for another credit');
      }
      return { creditId: replay.id, number: null, pdfUrl: null, replayed: true };
    }
    const view = viewOf(invoice, await repository.creditsOf(invoice.id), false);
    const left = input.refund ? view.refundableMinor : view.remainingMinor;
    if (input.refund && view.status !== 'paid') {
      throw new PaymentError(
        'CreditRefused',
        `Invoice ${view.number} is not paid: nothing to refund`,
      );
    }
    if (!input.refund && view.status !== 'open') {
      throw new PaymentError('CreditRefused', `Invoice ${view.number} is not open`);
    }
    if (!Number.isSafeInteger(input.amountMinor) || input.amountMinor <= 0) {
      throw new PaymentError('CreditRefused', 'A credit is a positive amount');
    }
    if (input.amountMinor > left) {
      throw new PaymentError(
        'CreditRefused',
        `Invoice ${view.number} has ${left} left to ${input.refund ? 'refund' : 'credit'}`,
      );
    }
    const credit = await repository.insertCredit({
      invoiceId: invoice.id,
      amount: input.amountMinor,
      refunded: input.refund ? input.amountMinor : 0,
      reason: input.reason,
      idempotencyKey: input.idempotencyKey,
      createdAt: now,
    });
    // Nothing owed any more: the invoice is closed, as Stripe closes a wholly credited one.
    if (!input.refund && input.amountMinor === left) {
      await repository.updateInvoice(invoice.id, { status: 'void' });
    }
    return { creditId: credit.id, number: null, pdfUrl: null, replayed: false };
  });
}
