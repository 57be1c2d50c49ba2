import {
  invoiceCheckoutRequestSchema,
  type InvoiceCheckoutResponse,
} from '#shared/contracts/invoice-checkout.ts';
import type { Currency } from '#shared/pricing/index.ts';
import type { SyncDeps } from '../subscriptions/sync-subscription.ts';
import type { ViesClient } from '../vat/vies-client.ts';
import { createQuoteRepository } from '../quotes/quote-repository.ts';
import { createOutboxRepository } from '#server/platform/email/outbox-repository.ts';
import { createInvoiceCheckout } from './create-invoice-checkout.ts';
import { invoiceOrderInReviewEmail } from './emails/invoice-order-review-emails.ts';
import {
  approvalReason,
  reviewDueAt,
  type ApprovalReason,
  type InvoiceApprovalPolicy,
} from './invoice-approval.ts';
import { invoiceOrderAmounts } from './invoice-order-amounts.ts';
import { invoiceOrderCapOf } from './invoice-order-cap.ts';
import { createInvoiceOrderRepository, type InvoiceOrder } from './invoice-order-repository.ts';
import { hashInvoiceOrderToken, INVOICE_ORDER_TOKEN_PATTERN } from './invoice-order-token.ts';

export type ConfirmInvoiceOrderResult =
  | { ok: true; orderId: string; order: InvoiceCheckoutResponse; review?: undefined }
  /** Confirmed by its mailbox, waiting for finance (decision 230): no key, no invoice yet. */
  | {
      ok: true;
      orderId: string;
      order?: undefined;
      review: { reason: ApprovalReason; dueAt: Date };
    }
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
  deps: SyncDeps & { vies: ViesClient; invoiceApproval: InvoiceApprovalPolicy },
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
  const details = invoiceCheckoutRequestSchema.parse(order.details);
  // Credit is given after finance looked, when the policy says so (decision 230).
  const reason = approvalReason(deps.invoiceApproval, {
    netMinor: invoiceOrderAmounts(details).netMinor,
    currency: details.billingCurrency,
    paidBefore: await createInvoiceOrderRepository(deps.db).paidBefore(
      invoiceOrderCapOf(order.emailNormalized),
      order.emailNormalized,
    ),
  });
  if (reason) {
    const dueAt = reviewDueAt(now);
    await deps.db.transaction(async (tx) => {
      await createInvoiceOrderRepository(tx).markAwaitingApproval(order.id, { reason, dueAt });
      const email = invoiceOrderInReviewEmail({
        orderId: order.id,
        order: {
          edition: details.edition,
          quantity: details.quantity,
          billingPeriod: details.billingPeriod,
          currency: details.billingCurrency,
        },
        reviewDueAt: dueAt,
        publicBaseUrl: deps.publicBaseUrl,
      });
      await createOutboxRepository(tx).enqueue(
        { ...email, kind: 'invoice-order-in-review', to: details.billingEmail },
        now,
      );
    });
    deps.wakeOutbox();
    return { ok: true, orderId: order.id, review: { reason, dueAt } };
  }
  const fulfilled = await fulfilInvoiceOrder(deps, order, { onFailure: 'pending' });
  return fulfilled.ok ? { ok: true, orderId: order.id, order: fulfilled.order } : fulfilled;
}

/**
 * Creates what a confirmed (or approved) order pays for: the provider makes the customer, the
 * subscription and its invoice, the sync issues the licence and e-mails the key; the order and
 * its quote are marked. A provider failure gives the order back (`pending`: its link works again;
 * `awaiting`: it returns to finance's queue) and the quote with it.
 */
export async function fulfilInvoiceOrder(
  deps: SyncDeps & { vies: ViesClient },
  order: InvoiceOrder,
  options: { onFailure: 'pending' | 'awaiting'; review?: { at: Date; by: string } },
): Promise<{ ok: true; order: InvoiceCheckoutResponse } | { ok: false; code: 'LinkInvalid' }> {
  const giveBack = async () => {
    const orders = createInvoiceOrderRepository(deps.db);
    if (options.onFailure === 'pending') await orders.releaseClaim(order.id);
    else await orders.releaseApprovalClaim(order.id);
    if (order.quoteNumber && options.onFailure === 'pending') {
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
  await createInvoiceOrderRepository(deps.db).markConfirmed(
    order.id,
    { provider: deps.payments.name, subscriptionId, invoiceNumber },
    options.review,
  );
  if (order.quoteNumber) {
    await createQuoteRepository(deps.db).recordAcceptance(order.quoteNumber, order.id, {
      subscriptionId,
      invoiceNumber,
    });
  }
  return { ok: true, order: created.order };
}
