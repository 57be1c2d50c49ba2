import type { BillingPorts } from '#server/billing/billing-ports.ts';
import { parseDocumentNumber } from '#server/billing/documents/payment-document.ts';
import { createPaymentDocumentRepository } from '#server/billing/documents/payment-document-repository.ts';
import { handlePaymentEvent, syncDepsOf } from '#server/billing/subscriptions/sync-subscription.ts';
import { markLocalInvoicePaid } from './local-invoices.ts';

export type RecordInvoicePaymentResult =
  | {
      ok: true;
      /** The invoice as the operator knows it: our INV number, else the provider's. */ shown: string;
    }
  | {
      ok: false;
      code: 'NotLocalProvider' | 'InvoiceNotFound' | 'InvoiceNotOpen';
      detail: string;
    };

/**
 * An operator records the bank transfer that paid an open invoice of the local provider (decision
 * 144): the invoice is paid, the provider raises `invoice.paid` and the sync restores a licence
 * suspended for it, as a transfer reaching Stripe does. `invoice` is our number (INV-…, which
 * names the provider's invoice it documents, decision 220) or the provider's number or id.
 */
export async function recordInvoicePayment(
  ports: BillingPorts,
  invoice: string,
): Promise<RecordInvoicePaymentResult> {
  if (ports.payments.name !== 'local') {
    return {
      ok: false,
      code: 'NotLocalProvider',
      detail:
        'The payment provider is Stripe: invoices live there (its Dashboard marks them paid).',
    };
  }
  const db = ports.database.db;
  const document = parseDocumentNumber(invoice)
    ? await createPaymentDocumentRepository(db).findByNumber(invoice)
    : undefined;
  const idOrNumber = document?.kind === 'invoice' ? document.providerInvoiceId : invoice;
  const marked = await markLocalInvoicePaid({ db, clock: ports.clock }, idOrNumber);
  if (!marked.ok) return marked;
  const sync = syncDepsOf(ports);
  for (const event of marked.events) await handlePaymentEvent(sync, event);
  return { ok: true, shown: document?.number ?? marked.invoice.number ?? marked.invoice.id };
}
