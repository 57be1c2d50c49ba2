import {
  invoiceCheckoutRequestSchema,
  type InvoiceCheckoutResponse,
} from '#shared/contracts/invoice-checkout.ts';
import type { Currency } from '#shared/pricing/index.ts';
import type { SyncDeps } from '../subscriptions/sync-subscription.ts';
import type { ViesClient } from '../vat/vies-client.ts';
import { createQuoteRepository } from '../quotes/quote-repository.ts';
import { createInvoiceCheckout } from './create-invoice-checkout.ts';
import { invoiceOrderCapOf } from './invoice-order-cap.ts';
import { createInvoiceOrderRepository, type InvoiceOrder } from './invoice-order-repository.ts';
import { hashInvoiceOrderToken, INVOICE_ORDER_TOKEN_PATTERN } from './invoice-order-token.ts';

export type ConfirmInvoiceOrderResult =
  | { ok: true; orderId: string; order: InvoiceCheckoutResponse }
  | { ok: false; code: 'NoBankAccount'; currency: Currency }
  | { ok: false; code: ConfirmInvoiceOrderRefusal };

export type ConfirmInvoiceOrderRefusal =
  'LinkInvalid' | 'OrderOpen' | 'DomainLimit' | 'QuoteAccepted';

/** The order a link's token names, if the token has the link's shape. */
export async function findInvoiceOrderByToken(
  deps: Pick<SyncDeps, 'db' | 'secretKey'>,
  token: string,
): Promise<InvoiceOrder | undefined> {
  if (!INVOICE_ORDER_TOKEN_PATTERN.test(token)) return undefined;
  return createInvoiceOrderRepository(deps.db).findByTokenHash(
    hashInvoiceOrderToken(deps.secretKey, token),
  );
}

type Claim = { ok: true; order: InvoiceOrder } | { ok: false; code: ConfirmInvoiceOrderRefusal };

/**
 * The landing page's "Confirm the order" (decision 153), in order: a pending, unexpired order
 * for the link (else LinkInvalid) → a bank account in its currency (else NoBankAccount) → under its cap's lock, the caps again: no other confirmed
 * unpaid order for the address (else OrderOpen), at a company domain fewer than its cap of
 * confirmed unpaid orders (else DomainLimit; either way the order stays pending, decision 209) →
 * the order is claimed by
 * a conditional update (of two confirmations at once, one) → a quote it accepts is claimed the
 * same way (else QuoteAccepted, the order is cancelled; decision 154) → outside the transaction
 * the provider creates the subscription and invoice and the licence is issued. A provider
 * failure gives the order and the quote back, so the link works again.
 */
export async function confirmInvoiceOrder(
  deps: SyncDeps & { vies: ViesClient },
  token: string,
): Promise<ConfirmInvoiceOrderResult> {
  const found = await findInvoiceOrderByToken(deps, token);
  if (!found) return { ok: false, code: 'LinkInvalid' };
  // The account may have been withdrawn since the order was placed (decision 218): the link stays.
  const ordered = invoiceCheckoutRequestSchema.safeParse(found.details);
  if (ordered.success && !deps.bankAccounts[ordered.data.billingCurrency]) {
    return { ok: false, code: 'NoBankAccount', currency: ordered.data.billingCurrency };
  }
  const now = deps.clock();
  const claim = await deps.db.transaction(async (tx): Promise<Claim> => {
    const orders = createInvoiceOrderRepository(tx);
    const cap = invoiceOrderCapOf(found.emailNormalized);
    await orders.lock(cap.lockKey);
    const current = await orders.findById(found.id);
    if (!current || current.status !== 'pending' || current.expiresAt <= now) {
      return { ok: false, code: 'LinkInvalid' };
    }
    const refusal = await orders.capRefusal(cap, current.emailNormalized, now, current.id);
    if (refusal) return { ok: false, code: refusal };
    const claimed = await orders.claimForConfirmation(current.id, now);
    if (!claimed) return { ok: false, code: 'LinkInvalid' };
    if (
      claimed.quoteNumber &&
      !(await createQuoteRepository(tx).claimAcceptance(claimed.quoteNumber, claimed.id, now))
    ) {
      await orders.cancel(claimed.id, 'quote-accepted', now, { orStuck: true });
      return { ok: false, code: 'QuoteAccepted' };
    }
    return { ok: true, order: claimed };
  });
  if (!claim.ok) return claim;

  const order = claim.order;
  const giveBack = async () => {
    await createInvoiceOrderRepository(deps.db).releaseClaim(order.id);
    if (order.quoteNumber) {
      await createQuoteRepository(deps.db).releaseAcceptance(order.quoteNumber, order.id);
    }
  };
  let created;
  try {
    created = await createInvoiceCheckout(deps, invoiceCheckoutRequestSchema.parse(order.details), {
      requestId: `inv_${order.id}`,
      quoteReference: order.quoteNumber,
      licenceHolderEmail: order.licenceHolderEmail,
    });
  } catch (error) {
    await giveBack();
    throw error;
  }
  if (!created.ok) {
    await giveBack();
    return { ok: false, code: 'LinkInvalid' };
  }
  const { subscriptionId, invoiceNumber } = created.order;
  await createInvoiceOrderRepository(deps.db).markConfirmed(order.id, {
    provider: deps.payments.name,
    subscriptionId,
    invoiceNumber,
  });
  if (order.quoteNumber) {
    await createQuoteRepository(deps.db).recordAcceptance(order.quoteNumber, order.id, {
      subscriptionId,
      invoiceNumber,
    });
  }
  return { ok: true, orderId: order.id, order: created.order };
}
