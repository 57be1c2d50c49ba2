import type { Edition } from '#shared/pricing/index.ts';
import type { SubscriptionStatus } from '#server/billing/subscriptions/payment-types.ts';
import { invoiceSuspends } from '#server/billing/subscriptions/invoice-rules.ts';
import { addMonths } from '#server/licensing/licences/licence-expiry.ts';

/**
 * The licence lifecycle of docs/product-rules.md#behaviour as pure functions of (licence, subscription, clock): no I/O,
 * so every transition is tested with a fake clock (lifecycle-rules.test.ts). See decision 063.
 */

/** A lapsed licence can be reactivated by paying within this many months of its deactivation. */
export const REACTIVATION_WINDOW_MONTHS = 2;
/** A licence marked for deletion is physically deleted this many months later. */
export const DELETION_NOTICE_MONTHS = 1;
/** An ended (cancelled) licence is kept this long before it is marked for deletion (data retention). */
export const RETENTION_AFTER_END_MONTHS = 2;

export type LicenceType = 'Trial' | 'Free' | 'Paid';
export type LicenceStatus = 'Active' | 'Deactivated' | 'Cancelled';

/** The fields of a licence row that the lifecycle reads and writes. */
export interface LicenceLifecycle {
  type: LicenceType;
  status: LicenceStatus;
  edition: Edition;
  quantity: number;
  expiresAt: Date | null;
  deactivatedAt: Date | null;
  deletionScheduledAt: Date | null;
  subscriptionStatus: string | null;
}

/** The part of a subscription the lifecycle reads. */
export interface SubscriptionTerms {
  status: SubscriptionStatus;
  edition: Edition;
  quantity: number;
  currentPeriodEnd: Date;
  cancelAtPeriodEnd: boolean;
  endedAt: Date | null;
  endedForNonPayment: boolean;
  /** How the buyer pays: by card (charged automatically) or by invoice (decision 144). */
  collection: 'card' | 'invoice';
  /** The due date of the oldest invoice still open, for a subscription paid by invoice. */
  unpaidInvoiceDueAt: Date | null;
}

export type LifecycleEvent =
  | { kind: 'PaymentFailed' }
  /** `unpaidInvoice`: an invoice left unpaid (decision 144), not a card the provider gave up on. */
  | { kind: 'Deactivated'; reactivateBy: Date; unpaidInvoice: boolean }
  | { kind: 'Reactivated' }
  | { kind: 'CancellationConfirmed'; effectiveAt: Date; immediate: boolean }
  | {
      kind: 'PlanChanged';
      from: { edition: Edition; quantity: number };
      to: { edition: Edition; quantity: number };
    }
  | { kind: 'DeletionScheduled'; deleteAt: Date; reason: 'lapsed' | 'ended' };

/**
 * Where a subscription stands with its payments, in order of precedence:
 * pending (first payment not made) → ended (cancelled by the buyer) → lapsed (the provider gave
 * up collecting, or paused) → retrying (a payment failed, the provider retries) → good.
 */
export type PaymentStanding = 'pending' | 'ended' | 'lapsed' | 'retrying' | 'good';

export function paymentStanding(terms: SubscriptionTerms): PaymentStanding {
  switch (terms.status) {
    case 'incomplete':
    case 'incomplete_expired':
      return 'pending';
    case 'canceled':
      return terms.endedForNonPayment ? 'lapsed' : 'ended';
    case 'unpaid':
    case 'paused':
      return 'lapsed';
    case 'past_due':
      return 'retrying';
    case 'active':
    case 'trialing':
      return 'good';
  }
}

/**
 * The standing at `now`, which differs from paymentStanding only for a subscription paid by
 * invoice (decision 144): its buyer gets our reminders rather than a failed-card e-mail, so past
 * due counts as good until the open invoice suspends the licence, then as lapsed until paid.
 */
export function standingAt(terms: SubscriptionTerms, now: Date): PaymentStanding {
  const standing = paymentStanding(terms);
  if (terms.collection !== 'invoice' || (standing !== 'good' && standing !== 'retrying')) {
    return standing;
  }
  return invoiceSuspends(terms.unpaidInvoiceDueAt, now) ? 'lapsed' : 'good';
}

/** Starter is the Free licence type; Pro and Enterprise are Paid. */
export function licenceTypeForEdition(edition: Edition): LicenceType {
  return edition === 'Starter' ? 'Free' : 'Paid';
}

export interface SubscriptionChange {
  licence: LicenceLifecycle;
  events: LifecycleEvent[];
  /** A Free licence asked to cancel at period end: it cancels at once instead (docs/product-rules.md#behaviour). */
  cancelSubscriptionNow: boolean;
}

function sameLicence(a: LicenceLifecycle, b: LicenceLifecycle): boolean {
  return (
    a.type === b.type &&
    a.status === b.status &&
    a.edition === b.edition &&
    a.quantity === b.quantity &&
    a.expiresAt?.getTime() === b.expiresAt?.getTime() &&
    a.deactivatedAt?.getTime() === b.deactivatedAt?.getTime() &&
    a.deletionScheduledAt?.getTime() === b.deletionScheduledAt?.getTime() &&
    a.subscriptionStatus === b.subscriptionStatus
  );
}

/** Whether applying a change would write anything (so a repeated sync is a no-op). */
export function licenceChanged(before: LicenceLifecycle, after: LicenceLifecycle): boolean {
  return !sameLicence(before, after);
}

/**
 * Applies the subscription as it is now to the licence attached to it. `previous` is the
 * subscription as last synced (null on the first sync); it only decides which e-mails a change
 * causes, never the resulting state, so duplicated or reordered deliveries end in the same state.
 */
export function applySubscription(
  licence: LicenceLifecycle,
  previous: SubscriptionTerms | null,
  current: SubscriptionTerms,
  now: Date,
): SubscriptionChange {
  const events: LifecycleEvent[] = [];
  const next: LicenceLifecycle = { ...licence, subscriptionStatus: current.status };
  // Past the reactivation window nothing brings a licence back; the sweep deletes it.
  if (licence.deletionScheduledAt) {
    return { licence: next, events, cancelSubscriptionNow: false };
  }
  const standing = standingAt(current, now);
  let cancelSubscriptionNow = false;

  if (standing === 'good' || standing === 'retrying') {
    // Plan and quantity changes take effect immediately (the provider prorates).
    next.type = licenceTypeForEdition(current.edition);
    next.edition = current.edition;
    next.quantity = current.quantity;
    next.expiresAt = current.currentPeriodEnd;
    if (
      licence.type !== 'Trial' &&
      (licence.edition !== current.edition || licence.quantity !== current.quantity)
    ) {
      events.push({
        kind: 'PlanChanged',
        from: { edition: licence.edition, quantity: licence.quantity },
        to: { edition: current.edition, quantity: current.quantity },
      });
    }
    if (current.cancelAtPeriodEnd && !previous?.cancelAtPeriodEnd) {
      if (next.type === 'Free') cancelSubscriptionNow = true;
      else {
        events.push({
          kind: 'CancellationConfirmed',
          effectiveAt: current.currentPeriodEnd,
          immediate: false,
        });
      }
    }
  }

  switch (standing) {
    case 'good':
      if (licence.status !== 'Active') {
        next.status = 'Active';
        next.deactivatedAt = null;
        events.push({ kind: 'Reactivated' });
      }
      break;
    case 'retrying': {
      const wasRetrying = previous
        ? paymentStanding(previous) === 'retrying'
        : licence.subscriptionStatus === 'past_due';
      if (!wasRetrying && licence.status === 'Active') events.push({ kind: 'PaymentFailed' });
      break;
    }
    case 'lapsed':
      if (licence.status === 'Active') {
        next.status = 'Deactivated';
        next.deactivatedAt = now;
        events.push({
          kind: 'Deactivated',
          reactivateBy: addMonths(now, REACTIVATION_WINDOW_MONTHS),
          unpaidInvoice: current.collection === 'invoice',
        });
      }
      break;
    case 'ended':
      if (licence.status !== 'Cancelled') {
        const endedAt = current.endedAt ?? now;
        next.status = 'Cancelled';
        next.deactivatedAt = null;
        next.expiresAt = endedAt;
        // A paid cancellation at period end was confirmed when it was requested; a Free one
        // was turned into this immediate end without an e-mail.
        if (!previous?.cancelAtPeriodEnd || licence.type === 'Free') {
          events.push({ kind: 'CancellationConfirmed', effectiveAt: endedAt, immediate: true });
        }
      }
      break;
    case 'pending':
      break;
  }
  return { licence: next, events, cancelSubscriptionNow };
}

export type SweepStep =
  | { action: 'none' }
  /** The subscription should have renewed or ended by now: re-read it from the provider. */
  | { action: 'resync' }
  | {
      action: 'scheduleDeletion';
      licence: LicenceLifecycle;
      events: LifecycleEvent[];
      /** Stop the provider from charging for a licence that can no longer come back. */
      cancelSubscription: boolean;
    }
  /** Marked for deletion but its subscription still runs (an earlier cancel failed): retry. */
  | { action: 'cancelSubscription' }
  | { action: 'delete' };

/** How long after its paid-through date an active subscription is re-read if no event came. */
export const RESYNC_AFTER_MS = 24 * 60 * 60 * 1000;

/** Subscription states in which the provider charges nothing more. */
export const finishedSubscription: ReadonlySet<string> = new Set([
  'canceled',
  'incomplete_expired',
]);

/**
 * What the hourly lifecycle job does with one licence at `now`, in order of precedence:
 * due for deletion → delete; marked but its subscription still runs → cancel it; lapsed past
 * the reactivation window, or ended (or an expired trial) past the retention time → mark for
 * deletion; active
 * subscription a day past its period without news → re-read it.
 */
export function sweepStep(licence: LicenceLifecycle, now: Date): SweepStep {
  if (licence.deletionScheduledAt) {
    if (now >= licence.deletionScheduledAt) return { action: 'delete' };
    if (licence.subscriptionStatus && !finishedSubscription.has(licence.subscriptionStatus)) {
      return { action: 'cancelSubscription' };
    }
    return { action: 'none' };
  }
  const markForDeletion = (reason: 'lapsed' | 'ended'): SweepStep => {
    const deleteAt = addMonths(now, DELETION_NOTICE_MONTHS);
    return {
      action: 'scheduleDeletion',
      licence: { ...licence, deletionScheduledAt: deleteAt },
      events: [{ kind: 'DeletionScheduled', deleteAt, reason }],
      cancelSubscription: reason === 'lapsed',
    };
  };
  if (licence.status === 'Deactivated' && licence.deactivatedAt) {
    if (now >= addMonths(licence.deactivatedAt, REACTIVATION_WINDOW_MONTHS)) {
      return markForDeletion('lapsed');
    }
    return { action: 'none' };
  }
  if (licence.status === 'Cancelled' && licence.type !== 'Trial' && licence.expiresAt) {
    if (now >= addMonths(licence.expiresAt, RETENTION_AFTER_END_MONTHS)) {
      return markForDeletion('ended');
    }
    return { action: 'none' };
  }
  // An expired trial is kept for the retention time, then deleted like an ended licence (its
  // trial claim stays, so the address still cannot start a second trial).
  if (licence.type === 'Trial' && licence.subscriptionStatus === null && licence.expiresAt) {
    if (now >= addMonths(licence.expiresAt, RETENTION_AFTER_END_MONTHS)) {
      return {
        action: 'scheduleDeletion',
        licence: { ...licence, deletionScheduledAt: addMonths(now, DELETION_NOTICE_MONTHS) },
        events: [],
        cancelSubscription: false,
      };
    }
    return { action: 'none' };
  }
  if (
    licence.status === 'Active' &&
    licence.type !== 'Trial' &&
    licence.subscriptionStatus !== null &&
    licence.expiresAt &&
    now.getTime() - licence.expiresAt.getTime() >= RESYNC_AFTER_MS
  ) {
    return { action: 'resync' };
  }
  return { action: 'none' };
}
