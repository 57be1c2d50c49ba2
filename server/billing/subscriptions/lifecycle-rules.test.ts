import { describe, expect, it } from 'vitest';
import type { SubscriptionStatus } from '#server/billing/subscriptions/payment-types.ts';
import {
  applySubscription,
  licenceChanged,
  paymentStanding,
  sweepStep,
  type LicenceLifecycle,
  type SubscriptionTerms,
} from './lifecycle-rules.ts';

const at = (iso: string) => new Date(iso);

const periodEnd = at('2026-02-15T10:00:00Z');

function paidLicence(overrides: Partial<LicenceLifecycle> = {}): LicenceLifecycle {
  return {
    type: 'Paid',
    status: 'Active',
    edition: 'Pro',
    quantity: 10,
    expiresAt: periodEnd,
    deactivatedAt: null,
    deletionScheduledAt: null,
    subscriptionStatus: 'active',
    ...overrides,
  };
}

function terms(overrides: Partial<SubscriptionTerms> = {}): SubscriptionTerms {
  return {
    status: 'active',
    edition: 'Pro',
    quantity: 10,
    currentPeriodEnd: periodEnd,
    cancelAtPeriodEnd: false,
    endedAt: null,
    endedForNonPayment: false,
    collection: 'card',
    unpaidInvoiceDueAt: null,
    ...overrides,
  };
}

describe('paymentStanding', () => {
  const cases: Array<[SubscriptionStatus, boolean, string]> = [
    ['incomplete', false, 'pending'],
    ['incomplete_expired', false, 'pending'],
    ['trialing', false, 'good'],
    ['active', false, 'good'],
    ['past_due', false, 'retrying'],
    ['unpaid', false, 'lapsed'],
    ['paused', false, 'lapsed'],
    ['canceled', false, 'ended'],
    ['canceled', true, 'lapsed'],
  ];
  for (const [status, endedForNonPayment, expected] of cases) {
    it(`${status}${endedForNonPayment ? ' (non-payment)' : ''} → ${expected}`, () => {
      expect(paymentStanding(terms({ status, endedForNonPayment }))).toBe(expected);
    });
  }
});

describe('applySubscription', () => {
  const now = at('2026-01-20T12:00:00Z');

  it('converts a trial to Paid with the edition, quantity and paid-through date', () => {
    const trial = paidLicence({
      type: 'Trial',
      edition: 'Pro',
      quantity: 1,
      expiresAt: at('2026-03-01T00:00:00Z'),
      subscriptionStatus: null,
    });
    const change = applySubscription(trial, null, terms({ quantity: 12 }), now);
    expect(change.licence).toMatchObject({
      type: 'Paid',
      status: 'Active',
      quantity: 12,
      expiresAt: periodEnd,
      subscriptionStatus: 'active',
    });
    expect(change.events).toEqual([]);
  });

  it('makes a Starter subscription a Free licence', () => {
    const trial = paidLicence({ type: 'Trial', subscriptionStatus: null });
    const change = applySubscription(trial, null, terms({ edition: 'Starter', quantity: 3 }), now);
    expect(change.licence).toMatchObject({ type: 'Free', edition: 'Starter', quantity: 3 });
  });

  it('applies plan and quantity changes immediately', () => {
    const change = applySubscription(
      paidLicence(),
      terms(),
      terms({ edition: 'Enterprise', quantity: 25 }),
      now,
    );
    expect(change.licence).toMatchObject({ edition: 'Enterprise', quantity: 25, type: 'Paid' });
    expect(change.events).toEqual([
      {
        kind: 'PlanChanged',
        from: { edition: 'Pro', quantity: 10 },
        to: { edition: 'Enterprise', quantity: 25 },
      },
    ]);
  });

  it('moves the expiry with each renewal and changes nothing else', () => {
    const nextEnd = at('2026-03-15T10:00:00Z');
    const change = applySubscription(
      paidLicence(),
      terms(),
      terms({ currentPeriodEnd: nextEnd }),
      now,
    );
    expect(change.licence).toEqual(paidLicence({ expiresAt: nextEnd }));
    expect(change.events).toEqual([]);
  });

  it('announces a failed payment once and keeps the licence active while the provider retries', () => {
    const first = applySubscription(paidLicence(), terms(), terms({ status: 'past_due' }), now);
    expect(first.licence.status).toBe('Active');
    expect(first.licence.subscriptionStatus).toBe('past_due');
    expect(first.events).toEqual([{ kind: 'PaymentFailed' }]);
    const again = applySubscription(
      first.licence,
      terms({ status: 'past_due' }),
      terms({ status: 'past_due' }),
      now,
    );
    expect(again.events).toEqual([]);
    expect(licenceChanged(first.licence, again.licence)).toBe(false);
  });

  it('without a previous sync, takes the licence status as what was known before', () => {
    const known = paidLicence({ subscriptionStatus: 'past_due' });
    expect(applySubscription(known, null, terms({ status: 'past_due' }), now).events).toEqual([]);
    const fresh = paidLicence({ subscriptionStatus: 'active' });
    expect(applySubscription(fresh, null, terms({ status: 'past_due' }), now).events).toEqual([
      { kind: 'PaymentFailed' },
    ]);
  });

  it('deactivates a licence whose payment lapsed (unpaid)', () => {
    const change = applySubscription(
      paidLicence({ subscriptionStatus: 'past_due' }),
      terms({ status: 'past_due' }),
      terms({ status: 'unpaid' }),
      now,
    );
    expect(change.licence).toMatchObject({ status: 'Deactivated', deactivatedAt: now });
    expect(change.events).toEqual([
      { kind: 'Deactivated', reactivateBy: at('2026-03-20T12:00:00Z'), unpaidInvoice: false },
    ]);
  });

  it('deactivates when the provider cancelled for non-payment', () => {
    const change = applySubscription(
      paidLicence(),
      terms({ status: 'past_due' }),
      terms({ status: 'canceled', endedAt: now, endedForNonPayment: true }),
      now,
    );
    expect(change.licence.status).toBe('Deactivated');
    expect(change.events.map((event) => event.kind)).toEqual(['Deactivated']);
  });

  it('keeps the first deactivation date when the lapse is seen again later', () => {
    const deactivated = paidLicence({
      status: 'Deactivated',
      deactivatedAt: now,
      subscriptionStatus: 'unpaid',
    });
    const later = at('2026-02-01T00:00:00Z');
    const change = applySubscription(
      deactivated,
      terms({ status: 'unpaid' }),
      terms({ status: 'unpaid' }),
      later,
    );
    expect(change.licence).toEqual(deactivated);
    expect(change.events).toEqual([]);
  });

  it('reactivates a lapsed licence that is paid within the window', () => {
    const deactivated = paidLicence({
      status: 'Deactivated',
      deactivatedAt: now,
      subscriptionStatus: 'unpaid',
    });
    const nextEnd = at('2026-04-15T10:00:00Z');
    const change = applySubscription(
      deactivated,
      terms({ status: 'unpaid' }),
      terms({ currentPeriodEnd: nextEnd }),
      at('2026-03-01T00:00:00Z'),
    );
    expect(change.licence).toMatchObject({
      status: 'Active',
      deactivatedAt: null,
      expiresAt: nextEnd,
    });
    expect(change.events).toEqual([{ kind: 'Reactivated' }]);
  });

  it('never brings back a licence already marked for deletion', () => {
    const marked = paidLicence({
      status: 'Deactivated',
      deactivatedAt: at('2025-11-01T00:00:00Z'),
      deletionScheduledAt: at('2026-02-01T00:00:00Z'),
      subscriptionStatus: 'unpaid',
    });
    const change = applySubscription(marked, terms({ status: 'unpaid' }), terms(), now);
    expect(change.licence).toEqual({ ...marked, subscriptionStatus: 'active' });
    expect(change.events).toEqual([]);
  });

  it('confirms a cancellation at period end when it is requested and keeps the licence until then', () => {
    const change = applySubscription(
      paidLicence(),
      terms(),
      terms({ cancelAtPeriodEnd: true }),
      now,
    );
    expect(change.licence).toMatchObject({ status: 'Active', expiresAt: periodEnd });
    expect(change.events).toEqual([
      { kind: 'CancellationConfirmed', effectiveAt: periodEnd, immediate: false },
    ]);
    expect(change.cancelSubscriptionNow).toBe(false);
    const repeated = applySubscription(
      change.licence,
      terms({ cancelAtPeriodEnd: true }),
      terms({ cancelAtPeriodEnd: true }),
      now,
    );
    expect(repeated.events).toEqual([]);
  });

  it('ends the licence at period end without a second e-mail', () => {
    const change = applySubscription(
      paidLicence(),
      terms({ cancelAtPeriodEnd: true }),
      terms({ status: 'canceled', cancelAtPeriodEnd: true, endedAt: periodEnd }),
      periodEnd,
    );
    expect(change.licence).toMatchObject({ status: 'Cancelled', expiresAt: periodEnd });
    expect(change.events).toEqual([]);
  });

  it('confirms an immediate cancellation (e.g. a Free licence) when the subscription ends', () => {
    const free = paidLicence({ type: 'Free', edition: 'Starter', quantity: 3 });
    const change = applySubscription(
      free,
      terms({ edition: 'Starter', quantity: 3 }),
      terms({ edition: 'Starter', quantity: 3, status: 'canceled', endedAt: now }),
      now,
    );
    expect(change.licence).toMatchObject({ status: 'Cancelled', expiresAt: now });
    expect(change.events).toEqual([
      { kind: 'CancellationConfirmed', effectiveAt: now, immediate: true },
    ]);
  });

  it('cancels a Free licence at once when it asks to cancel at period end', () => {
    const free = paidLicence({ type: 'Free', edition: 'Starter', quantity: 3 });
    const starter = terms({ edition: 'Starter', quantity: 3 });
    const change = applySubscription(free, starter, { ...starter, cancelAtPeriodEnd: true }, now);
    expect(change.cancelSubscriptionNow).toBe(true);
    expect(change.events).toEqual([]);
    // The immediate end that follows is what gets confirmed.
    const ended = applySubscription(
      change.licence,
      { ...starter, cancelAtPeriodEnd: true },
      { ...starter, cancelAtPeriodEnd: true, status: 'canceled', endedAt: now },
      now,
    );
    expect(ended.licence.status).toBe('Cancelled');
    expect(ended.events).toEqual([
      { kind: 'CancellationConfirmed', effectiveAt: now, immediate: true },
    ]);
  });

  it('an incomplete subscription changes nothing but the recorded status', () => {
    const change = applySubscription(paidLicence(), null, terms({ status: 'incomplete' }), now);
    expect(change.licence).toEqual(paidLicence({ subscriptionStatus: 'incomplete' }));
    expect(change.events).toEqual([]);
  });

  it('ends in the same state whatever order the same final state arrives in', () => {
    const finalTerms = terms({ status: 'past_due', quantity: 14 });
    const viaPrevious = [null, terms(), terms({ status: 'unpaid' }), terms({ quantity: 5 })];
    const results = viaPrevious.map(
      (previous) => applySubscription(paidLicence(), previous, finalTerms, now).licence,
    );
    for (const result of results) expect(result).toEqual(results[0]);
  });
});

describe('sweepStep', () => {
  const deactivatedAt = at('2026-01-31T08:00:00Z');
  const lapsed = paidLicence({
    status: 'Deactivated',
    deactivatedAt,
    subscriptionStatus: 'unpaid',
  });

  it('leaves a lapsed licence alone inside the two-month window', () => {
    expect(sweepStep(lapsed, at('2026-03-31T07:59:59Z'))).toEqual({ action: 'none' });
  });

  it('marks a lapsed licence for deletion two months after deactivation (clamped month end)', () => {
    // 31 January + 2 months is 31 March.
    const now = at('2026-03-31T08:00:00Z');
    const step = sweepStep(lapsed, now);
    expect(step).toEqual({
      action: 'scheduleDeletion',
      licence: { ...lapsed, deletionScheduledAt: at('2026-04-30T08:00:00Z') },
      events: [
        { kind: 'DeletionScheduled', deleteAt: at('2026-04-30T08:00:00Z'), reason: 'lapsed' },
      ],
      cancelSubscription: true,
    });
  });

  it('deletes a licence once its deletion date has come, not before', () => {
    const marked = {
      ...lapsed,
      deletionScheduledAt: at('2026-04-30T08:00:00Z'),
      subscriptionStatus: 'canceled',
    };
    expect(sweepStep(marked, at('2026-04-30T07:59:59Z'))).toEqual({ action: 'none' });
    expect(sweepStep(marked, at('2026-04-30T08:00:00Z'))).toEqual({ action: 'delete' });
  });

  it('retries cancelling the subscription of a marked licence until the provider ended it', () => {
    const marked = { ...lapsed, deletionScheduledAt: at('2026-04-30T08:00:00Z') };
    expect(sweepStep(marked, at('2026-04-01T00:00:00Z'))).toEqual({
      action: 'cancelSubscription',
    });
    expect(
      sweepStep({ ...marked, subscriptionStatus: 'canceled' }, at('2026-04-01T00:00:00Z')),
    ).toEqual({ action: 'none' });
  });

  it('keeps an ended licence for the retention time, then marks it without cancelling anything', () => {
    const ended = paidLicence({
      status: 'Cancelled',
      expiresAt: at('2026-02-15T10:00:00Z'),
      subscriptionStatus: 'canceled',
    });
    expect(sweepStep(ended, at('2026-04-15T09:00:00Z'))).toEqual({ action: 'none' });
    const step = sweepStep(ended, at('2026-04-15T10:00:00Z'));
    expect(step).toMatchObject({
      action: 'scheduleDeletion',
      cancelSubscription: false,
      events: [{ kind: 'DeletionScheduled', reason: 'ended' }],
    });
  });

  it('re-reads an active subscription a day past its paid-through date', () => {
    expect(sweepStep(paidLicence(), at('2026-02-16T09:59:59Z'))).toEqual({ action: 'none' });
    expect(sweepStep(paidLicence(), at('2026-02-16T10:00:00Z'))).toEqual({ action: 'resync' });
  });

  it('keeps an expired trial for the retention time, then marks it for deletion without e-mail', () => {
    const trial = paidLicence({
      type: 'Trial',
      subscriptionStatus: null,
      expiresAt: at('2026-03-15T10:00:00Z'),
    });
    expect(sweepStep(trial, at('2026-05-15T09:59:59Z'))).toEqual({ action: 'none' });
    expect(sweepStep(trial, at('2026-05-15T10:00:00Z'))).toEqual({
      action: 'scheduleDeletion',
      licence: { ...trial, deletionScheduledAt: at('2026-06-15T10:00:00Z') },
      events: [],
      cancelSubscription: false,
    });
  });

  it('walks the whole lapse timeline with a moving clock', () => {
    let licence = paidLicence();
    const kinds: string[] = [];
    const actions: string[] = [];
    const fail = applySubscription(licence, terms(), terms({ status: 'past_due' }), periodEnd);
    licence = fail.licence;
    kinds.push(...fail.events.map((event) => event.kind));
    const lapseAt = at('2026-03-01T10:00:00Z');
    const lapse = applySubscription(
      licence,
      terms({ status: 'past_due' }),
      terms({ status: 'unpaid' }),
      lapseAt,
    );
    licence = lapse.licence;
    kinds.push(...lapse.events.map((event) => event.kind));
    let now = lapseAt;
    let deleted = false;
    for (let hour = 0; hour < 24 * 120 && !deleted; hour++) {
      now = new Date(now.getTime() + 60 * 60 * 1000);
      const step = sweepStep(licence, now);
      if (step.action !== 'none' && actions.at(-1) !== step.action) actions.push(step.action);
      if (step.action === 'cancelSubscription') {
        // The provider ends the subscription; the next sync records it.
        licence = { ...licence, subscriptionStatus: 'canceled' };
      }
      if (step.action === 'scheduleDeletion') {
        licence = step.licence;
        kinds.push(...step.events.map((event) => event.kind));
        expect(now).toEqual(at('2026-05-01T10:00:00Z'));
      }
      if (step.action === 'delete') {
        deleted = true;
        expect(now).toEqual(at('2026-06-01T10:00:00Z'));
      }
    }
    expect(deleted).toBe(true);
    expect(kinds).toEqual(['PaymentFailed', 'Deactivated', 'DeletionScheduled']);
    expect(actions).toEqual(['scheduleDeletion', 'cancelSubscription', 'delete']);
  });
});

describe('a subscription paid by invoice (decision 144)', () => {
  const dueAt = at('2026-03-31T10:00:00Z');
  const open = (status: SubscriptionStatus = 'active') =>
    terms({ status, collection: 'invoice', unpaidInvoiceDueAt: dueAt });

  it('keeps its licence active while the invoice is open, also past due', () => {
    const change = applySubscription(
      paidLicence(),
      open(),
      open('past_due'),
      at('2026-04-05T00:00:00Z'),
    );
    expect(change.licence.status).toBe('Active');
    // Reminders are ours: no failed-card e-mail for an invoice.
    expect(change.events).toEqual([]);
  });

  it('suspends the licence two weeks after the due date', () => {
    const now = at('2026-04-14T10:00:00Z');
    const change = applySubscription(paidLicence(), open(), open('past_due'), now);
    expect(change.licence.status).toBe('Deactivated');
    expect(change.licence.deactivatedAt).toEqual(now);
    expect(change.events).toEqual([
      expect.objectContaining({ kind: 'Deactivated', unpaidInvoice: true }),
    ]);
  });

  it('restores the licence once the invoice is paid', () => {
    const suspended = paidLicence({
      status: 'Deactivated',
      deactivatedAt: at('2026-04-14T10:00:00Z'),
    });
    const paid = terms({ collection: 'invoice', unpaidInvoiceDueAt: null });
    const change = applySubscription(suspended, open('past_due'), paid, at('2026-04-20T00:00:00Z'));
    expect(change.licence.status).toBe('Active');
    expect(change.licence.deactivatedAt).toBeNull();
    expect(change.events.map((event) => event.kind)).toEqual(['Reactivated']);
  });

  it('does not suspend a card subscription for an invoice date', () => {
    const card = terms({ unpaidInvoiceDueAt: dueAt });
    const change = applySubscription(paidLicence(), card, card, at('2026-05-01T00:00:00Z'));
    expect(change.licence.status).toBe('Active');
  });
});
