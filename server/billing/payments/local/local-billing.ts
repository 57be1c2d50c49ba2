import { calculatePrice } from '#shared/pricing/index.ts';
import { addMonths } from '#server/licensing/licences/licence-expiry.ts';
import type { CheckoutOrder } from '#server/billing/subscriptions/payment-types.ts';

/**
 * The local provider's billing arithmetic (decision 062): every amount comes from the pricing
 * engine, in minor units (cents) like Stripe's; periods are calendar months or years.
 */

/** What one billing period of an order costs, in minor units. */
export function periodAmount(order: CheckoutOrder): number {
  const price = calculatePrice({
    size: order.quantity,
    billingPeriod: order.billingPeriod,
    currency: order.currency,
  });
  return price.selected.total * 100;
}

export function periodEndAfter(start: Date, billingPeriod: CheckoutOrder['billingPeriod']): Date {
  return addMonths(start, billingPeriod === 'monthly' ? 1 : 12);
}

export interface ProrationPreview {
  /** Share of the current period still ahead, 0..1. */
  remainingShare: number;
  /** Credit for the unused time of the current plan (≤ 0). */
  credit: number;
  /** Charge for the new plan: its share of the remaining time, or a whole new period (≥ 0). */
  charge: number;
  /** What is invoiced now: charge + credit; a negative total is credited. */
  total: number;
  /** What each later period costs on the new plan. */
  nextPeriodAmount: number;
  /** A switch between monthly and yearly billing starts a new period now (Stripe resets the anchor). */
  startsNewPeriod: boolean;
  /** When the period the new plan runs in ends: its next renewal. */
  periodEnd: Date;
}

/**
 * Stripe-style proration of a change at `now`: credit the unused share of the current plan;
 * within the same billing period charge the same share of the new plan, and on a switch between
 * monthly and yearly billing charge a whole new period starting now. Minor units, rounded to
 * the cent. A subscription keeps its currency (decision 090).
 */
export function previewProration(input: {
  current: CheckoutOrder;
  next: CheckoutOrder;
  periodStart: Date;
  periodEnd: Date;
  now: Date;
}): ProrationPreview {
  if (input.next.currency !== input.current.currency) {
    throw new Error('a subscription cannot change its currency');
  }
  const length = input.periodEnd.getTime() - input.periodStart.getTime();
  const left = input.periodEnd.getTime() - input.now.getTime();
  const remainingShare = length > 0 ? Math.min(1, Math.max(0, left / length)) : 0;
  const startsNewPeriod = input.next.billingPeriod !== input.current.billingPeriod;
  const credit = -Math.round(periodAmount(input.current) * remainingShare);
  const charge = startsNewPeriod
    ? periodAmount(input.next)
    : Math.round(periodAmount(input.next) * remainingShare);
  return {
    remainingShare,
    credit: credit === 0 ? 0 : credit,
    charge,
    total: charge + credit,
    nextPeriodAmount: periodAmount(input.next),
    startsNewPeriod,
    periodEnd: startsNewPeriod
      ? periodEndAfter(input.now, input.next.billingPeriod)
      : input.periodEnd,
  };
}

/**
 * When a failed renewal is tried again: 3, 5 and 7 days after the previous attempt. After the
 * fourth failure (about two weeks) the subscription becomes unpaid: its payment has lapsed.
 */
export const retryDelaysDays = [3, 5, 7] as const;

export function nextPaymentAttempt(failedAttempts: number, lastAttempt: Date): Date | null {
  const days = retryDelaysDays[failedAttempts - 1];
  return days === undefined ? null : new Date(lastAttempt.getTime() + days * 86_400_000);
}

/** `€13,046.00`: an amount in minor units as the local pages show it. */
export function formatMinorAmount(amount: number, currency: CheckoutOrder['currency']): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount / 100);
}
