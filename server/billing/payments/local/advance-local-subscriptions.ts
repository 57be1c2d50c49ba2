import type { Database, Executor } from '#server/platform/db/database.ts';
import type { PaymentEvent } from '#server/billing/subscriptions/payment-types.ts';
import { nextPaymentAttempt, periodAmount, periodEndAfter } from './local-billing.ts';
import { orderDescription } from './complete-local-checkout.ts';
import { INVOICE_NET_DAYS } from '#server/billing/subscriptions/invoice-rules.ts';
import { localEvents } from './local-events.ts';
import { renewLocalInvoiceSubscription } from './local-invoices.ts';
import {
  createLocalPaymentRepository,
  type LocalCustomer,
  type LocalSubscription,
} from './local-payment-repository.ts';

/** Whether the card on file pays `amount` (nothing to pay always succeeds). */
export function cardPays(customer: LocalCustomer | undefined, amount: number): boolean {
  return amount <= 0 || customer?.cardOutcome === 'succeeds';
}

/**
 * One step of Stripe's billing engine for one subscription that has work due at `now`:
 * a cancellation at period end ends it; a period end renews it (charging the card on file);
 * a due retry tries the open invoice again, and after the last failed retry it is unpaid.
 */
async function advanceOne(
  tx: Executor,
  subscription: LocalSubscription,
  now: Date,
): Promise<PaymentEvent[]> {
  const repository = createLocalPaymentRepository(tx);
  const customer = await repository.findCustomer(subscription.customerId);
  const live = subscription.status === 'active' || subscription.status === 'trialing';

  if (live && subscription.currentPeriodEnd <= now) {
    if (subscription.cancelAtPeriodEnd) {
      await repository.updateSubscription(
        subscription.id,
        { status: 'canceled', endedAt: subscription.currentPeriodEnd },
        now,
      );
      return localEvents(subscription.id, 'customer.subscription.deleted');
    }
    if (subscription.collectionMethod === 'send_invoice') {
      return renewLocalInvoiceSubscription(tx, subscription, INVOICE_NET_DAYS, now);
    }
    const periodStart = subscription.currentPeriodEnd;
    const periodEnd = periodEndAfter(periodStart, subscription.billingPeriod);
    const amount = periodAmount(subscription);
    const paid = cardPays(customer, amount);
    // A renewal is billed to the company the subscription was bought for (decision 219).
    const [previous] = await repository.invoicesOf(subscription.id);
    await repository.insertInvoice({
      subscriptionId: subscription.id,
      status: paid ? 'paid' : 'open',
      amount,
      currency: subscription.currency,
      description: orderDescription(subscription),
      periodStart,
      periodEnd,
      createdAt: now,
      paidAt: paid ? now : null,
      companyName: previous?.companyName ?? null,
      billingAddress: previous?.billingAddress ?? null,
      country: previous?.country ?? null,
      vatId: previous?.vatId ?? null,
      vatIdConfirmation: previous?.vatIdConfirmation ?? null,
    });
    await repository.updateSubscription(
      subscription.id,
      {
        currentPeriodStart: periodStart,
        currentPeriodEnd: periodEnd,
        status: paid ? 'active' : 'past_due',
        failedPaymentAttempts: paid ? 0 : 1,
        nextPaymentAttemptAt: paid ? null : nextPaymentAttempt(1, now),
      },
      now,
    );
    return localEvents(
      subscription.id,
      paid ? 'invoice.paid' : 'invoice.payment_failed',
      'customer.subscription.updated',
    );
  }

  if (subscription.status === 'past_due') {
    const invoice = await repository.openInvoice(subscription.id);
    const amount = invoice?.amount ?? 0;
    if (cardPays(customer, amount)) {
      if (invoice)
        await repository.updateInvoice(invoice.id, {
          status: 'paid',
          paidAt: now,
        });
      await repository.updateSubscription(
        subscription.id,
        { status: 'active', failedPaymentAttempts: 0, nextPaymentAttemptAt: null },
        now,
      );
      return localEvents(subscription.id, 'invoice.paid', 'customer.subscription.updated');
    }
    const failed = subscription.failedPaymentAttempts + 1;
    const next = nextPaymentAttempt(failed, now);
    await repository.updateSubscription(
      subscription.id,
      {
        failedPaymentAttempts: failed,
        nextPaymentAttemptAt: next,
        status: next ? 'past_due' : 'unpaid',
      },
      now,
    );
    return localEvents(subscription.id, 'invoice.payment_failed', 'customer.subscription.updated');
  }
  return [];
}

/** A stop for a runaway loop: far more steps than any clock jump in a test needs. */
const MAX_STEPS = 10_000;

/**
 * Runs every renewal, retry and period-end cancellation of local subscriptions due at the
 * clock's time, each step in its own transaction with the row locked (SKIP LOCKED, so several
 * instances share the work). Returns the events raised, in order, for dispatch.
 */
export async function advanceLocalSubscriptions(deps: {
  db: Database;
  clock: () => Date;
}): Promise<PaymentEvent[]> {
  const events: PaymentEvent[] = [];
  for (let step = 0; step < MAX_STEPS; step++) {
    const now = deps.clock();
    const raised = await deps.db.transaction(async (tx) => {
      const due = await createLocalPaymentRepository(tx).claimDueSubscription(now);
      return due ? advanceOne(tx, due, now) : null;
    });
    if (raised === null) break;
    events.push(...raised);
  }
  return events;
}
