import type { Database } from '#server/platform/db/database.ts';
import { normalizeEmailAddress } from '#server/platform/email/normalize-email-address.ts';
import type { PaymentEvent } from '#server/billing/subscriptions/payment-types.ts';
import type { AcceptedCard } from './local-cards.ts';
import { periodAmount, periodEndAfter } from './local-billing.ts';
import { localEvents } from './local-events.ts';
import {
  createLocalPaymentRepository,
  localId,
  type LocalCheckoutSession,
  type LocalInvoice,
} from './local-payment-repository.ts';

export type CompleteLocalCheckoutResult =
  | { ok: true; redirectTo: string; events: PaymentEvent[] }
  | { ok: false; code: 'SessionNotFound' | 'SessionExpired' | 'CardRequired' | 'CardDeclined' };

/** `{CHECKOUT_SESSION_ID}` in a success URL is replaced as Stripe does. */
export function successRedirect(session: LocalCheckoutSession): string {
  return session.successUrl.replaceAll('{CHECKOUT_SESSION_ID}', session.id);
}

export function orderDescription(order: {
  edition: string;
  quantity: number;
  billingPeriod: string;
}): string {
  const size = order.edition === 'Pro' ? `, ${order.quantity} orgs` : '';
  return `Orgsmith ${order.edition}${size}, billed ${order.billingPeriod}`;
}

/** The buyer a checkout session names (decision 219), as its invoices carry it. */
export function checkoutBuyerOf(
  session: LocalCheckoutSession,
): Pick<
  LocalInvoice,
  'companyName' | 'billingAddress' | 'country' | 'vatId' | 'vatIdConfirmation'
> {
  return {
    companyName: session.companyName,
    billingAddress: session.billingAddress,
    country: session.country,
    vatId: session.vatId,
    vatIdConfirmation: session.vatIdConfirmation,
  };
}

/**
 * The buyer submits the local hosted-checkout page: with a card that pays (or none for Starter)
 * the customer, subscription and first invoice are written in one transaction and the events
 * Stripe would send are returned for dispatch. A declined card changes nothing. A second submit
 * of a completed session just redirects again.
 */
export async function completeLocalCheckout(
  deps: { db: Database; clock: () => Date },
  input: { sessionId: string; email: string; card: AcceptedCard | null },
): Promise<CompleteLocalCheckoutResult> {
  const now = deps.clock();
  return deps.db.transaction(async (tx) => {
    const repository = createLocalPaymentRepository(tx);
    const session = await repository.lockCheckoutSession(input.sessionId);
    if (!session) return { ok: false, code: 'SessionNotFound' };
    if (session.status === 'complete') {
      return { ok: true, redirectTo: successRedirect(session), events: [] };
    }
    if (session.status === 'expired' || session.expiresAt <= now) {
      await repository.updateCheckoutSession(session.id, {
        status: 'expired',
      });
      return { ok: false, code: 'SessionExpired' };
    }
    const amount = periodAmount(session);
    if (amount > 0 && !input.card) return { ok: false, code: 'CardRequired' };
    if (amount > 0 && input.card?.outcome === 'declines')
      return { ok: false, code: 'CardDeclined' };

    const email = (session.customerEmail ?? input.email).trim();
    const customer = await repository.findOrCreateCustomer({
      email,
      emailNormalized: normalizeEmailAddress(email),
      currency: session.currency,
    });
    if (input.card) await repository.saveCard(customer.id, input.card);
    const periodEnd = periodEndAfter(now, session.billingPeriod);
    const subscription = await repository.insertSubscription({
      id: localId('lsub'),
      customerId: customer.id,
      status: 'active',
      edition: session.edition,
      quantity: session.quantity,
      billingPeriod: session.billingPeriod,
      currency: session.currency,
      currentPeriodStart: now,
      currentPeriodEnd: periodEnd,
      licenceIdToConvert: session.licenceIdToConvert,
      quoteNumber: session.quoteNumber,
      licenceHolderEmail: session.licenceHolderEmail,
      createdAt: now,
      updatedAt: now,
    });
    await repository.insertInvoice({
      subscriptionId: subscription.id,
      status: 'paid',
      amount,
      currency: session.currency,
      description: orderDescription(session),
      periodStart: now,
      periodEnd,
      createdAt: now,
      paidAt: now,
      ...checkoutBuyerOf(session),
      quoteReference: session.quoteNumber,
    });
    await repository.updateCheckoutSession(session.id, {
      status: 'complete',
      customerId: customer.id,
      subscriptionId: subscription.id,
      completedAt: now,
    });
    return {
      ok: true,
      redirectTo: successRedirect(session),
      events: localEvents(
        subscription.id,
        'checkout.session.completed',
        'customer.subscription.created',
        'invoice.paid',
      ),
    };
  });
}
