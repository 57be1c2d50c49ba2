import { randomBytes } from 'node:crypto';
import type {
  InvoiceCheckoutRequest,
  InvoiceCheckoutResponse,
} from '#shared/contracts/invoice-checkout.ts';
import { createLicenceRepository } from '#server/licensing/licences/licence-repository.ts';
import { syncSubscription, type SyncDeps } from '../subscriptions/sync-subscription.ts';
import { INVOICE_NET_DAYS, mayPayByInvoice } from '../subscriptions/invoice-rules.ts';
import { noBankAccountMessage } from '../bank-accounts.ts';
import { confirmVatId } from '../vat/confirm-vat-id.ts';
import type { ViesClient } from '../vat/vies-client.ts';

/**
 * An invoice order's details as stored: the validated request without the quote's token and the
 * licence holder (its own column, decision 223).
 */
export type InvoiceOrderDetails = Omit<InvoiceCheckoutRequest, 'quoteToken' | 'licenceHolderEmail'>;

export type InvoiceCheckoutResult =
  | { ok: true; order: InvoiceCheckoutResponse }
  | { ok: false; code: 'NotInvoiceable'; detail: string };

/**
 * Pay by invoice (decision 144), once the billing address is confirmed (decision 153), in order:
 * only yearly Pro and Enterprise (else NotInvoiceable) → VIES is asked about an EU buyer's VAT
 * ID, whose confirmation alone makes the invoice a reverse charge (decision 210) → the provider
 * creates the customer and
 * a subscription whose invoice is sent net 30 → the subscription is synced at once, so the
 * licence is issued (and its key e-mailed) before the invoice is paid, through the same
 * idempotent sync as card checkout. Only confirmInvoiceOrder calls this.
 */
export async function createInvoiceCheckout(
  deps: SyncDeps & { vies: ViesClient },
  request: InvoiceOrderDetails,
  options: {
    /** The order's id: the provider's idempotency key, so a retried confirmation adds nothing. */
    requestId?: string;
    /** The accepted quote's number, printed on the invoice. */
    quoteReference?: string | null;
    /** Who receives the licence key, when not the billing address (decision 223). */
    licenceHolderEmail?: string | null;
  } = {},
): Promise<InvoiceCheckoutResult> {
  if (!mayPayByInvoice(request)) {
    return {
      ok: false,
      code: 'NotInvoiceable',
      detail: 'Pay by invoice is offered for yearly Pro and Enterprise subscriptions only.',
    };
  }
  const bankAccount = deps.bankAccounts[request.billingCurrency];
  if (!bankAccount) {
    return {
      ok: false,
      code: 'NotInvoiceable',
      detail: noBankAccountMessage(request.billingCurrency),
    };
  }
  const vatIdConfirmation = await confirmVatId(deps, request);
  const created = await deps.payments.createInvoiceSubscription({
    requestId: options.requestId ?? `inv_${randomBytes(16).toString('base64url')}`,
    edition: request.edition,
    quantity: request.quantity,
    billingPeriod: request.billingPeriod,
    currency: request.billingCurrency,
    buyer: {
      companyName: request.companyName,
      email: request.billingEmail,
      address: {
        line1: request.addressLine,
        postalCode: request.postalCode,
        city: request.city,
        state: request.state ?? null,
        country: request.country,
      },
      vatId: request.vatId,
      vatIdConfirmation,
    },
    poReference: request.poReference,
    quoteReference: options.quoteReference ?? null,
    daysUntilDue: INVOICE_NET_DAYS,
    bankAccount,
    licenceHolderEmail: options.licenceHolderEmail ?? null,
  });
  const synced = await syncSubscription(deps, created.subscriptionId);
  const licence = synced.licenceId
    ? await createLicenceRepository(deps.db).findById(synced.licenceId)
    : undefined;
  return {
    ok: true,
    order: {
      subscriptionId: created.subscriptionId,
      invoiceNumber: created.invoice.number,
      invoiceUrl: created.invoice.hostedUrl,
      amountDue: created.invoice.amountDue,
      amountNet: created.invoice.netAmount,
      amountVat: created.invoice.vatAmount,
      currency: request.billingCurrency,
      dueAt: created.invoice.dueAt.toISOString(),
      licenceEmail: licence?.email ?? request.billingEmail,
      // The provider's e-mail, or ours: the licence e-mail links our invoice (decision 218).
      invoiceEmailedTo:
        created.emailedTo ??
        synced.documentsSent?.find((sent) => sent.number === created.invoice.number)?.to ??
        null,
    },
  };
}
