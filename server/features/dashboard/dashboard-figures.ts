import { calculatePrice, type BillingPeriod, type Currency } from '#shared/pricing/index.ts';
import type {
  DashboardCurrency,
  MrrMovement,
  TrialCohort,
  UsageDay,
} from '#shared/contracts/console-dashboard.ts';

/**
 * The dashboard's arithmetic (decision 234), pure: what a subscription adds to MRR, its state at an
 * instant from its history, the movements between two instants, and a trial cohort's conversion.
 * The repository reads the history; this decides what it means.
 */

/** The fields of a subscription (as `subscriptions` holds it) that decide what it pays. */
export interface SubscriptionTerms {
  status: string;
  quantity: number;
  billingPeriod: BillingPeriod;
  currency: Currency;
  endedAt: string | null;
}

/** One change of a subscription: from `at` on, its terms are `terms` (null: gone). */
export interface SubscriptionChange {
  at: Date;
  terms: SubscriptionTerms | null;
}

/** A subscription's history, oldest first; `initial` holds before the first change. */
export interface SubscriptionHistory {
  id: string;
  initial: SubscriptionTerms | null;
  changes: readonly SubscriptionChange[];
}

/** Provider statuses that count as paying: active, and past due while the retries run. */
export const PAYING_STATUSES: readonly string[] = ['active', 'past_due'];

/** A trial counts as converted if it became paid within this many days of its start. */
export const CONVERSION_DAYS = 60;
const DAY_MS = 86_400_000;

/**
 * What a subscription adds to MRR, in minor units net of VAT: its list price from
 * shared/pricing (the price the provider charges), a yearly one divided by 12 and rounded to the
 * cent; 0 unless it is paying (active or past due, not ended).
 */
export function mrrMinorOf(terms: SubscriptionTerms | null): number {
  if (!terms || terms.endedAt !== null || !PAYING_STATUSES.includes(terms.status)) return 0;
  const price = calculatePrice({
    size: terms.quantity,
    billingPeriod: terms.billingPeriod,
    currency: terms.currency,
  });
  const periodMinor = price.selected.total * 100;
  return terms.billingPeriod === 'yearly' ? Math.round(periodMinor / 12) : periodMinor;
}

/** The terms in force at `instant`: after every change strictly before it. */
export function termsAt(history: SubscriptionHistory, instant: Date): SubscriptionTerms | null {
  let terms = history.initial;
  for (const change of history.changes) {
    if (change.at.getTime() >= instant.getTime()) break;
    terms = change.terms;
  }
  return terms;
}

function emptyMovement(currency: DashboardCurrency): MrrMovement {
  return {
    currency,
    startMinor: 0,
    endMinor: 0,
    newMinor: 0,
    expansionMinor: 0,
    contractionMinor: 0,
    churnedMinor: 0,
    newCount: 0,
    expansionCount: 0,
    contractionCount: 0,
    churnedCount: 0,
    payingAtEnd: 0,
  };
}

/**
 * MRR at `from` and at `to`, and the movements between, per currency. Each subscription is
 * compared with itself at the two instants: nothing before and something after is new (a
 * reactivation too), more is expansion, less contraction, something before and nothing after
 * churn. So new + expansion − contraction − churn = end − start, to the cent, by construction.
 * A subscription whose currency changed (never, with Stripe) churns in one and is new in the other.
 */
export function mrrMovements(
  histories: readonly SubscriptionHistory[],
  from: Date,
  to: Date,
): MrrMovement[] {
  const byCurrency = new Map<DashboardCurrency, MrrMovement>();
  const movement = (currency: DashboardCurrency) => {
    let row = byCurrency.get(currency);
    if (!row) {
      row = emptyMovement(currency);
      byCurrency.set(currency, row);
    }
    return row;
  };
  for (const history of histories) {
    const before = termsAt(history, from);
    const after = termsAt(history, to);
    const start = mrrMinorOf(before);
    const end = mrrMinorOf(after);
    if (before && after && before.currency !== after.currency) {
      if (start > 0) churn(movement(before.currency), start);
      if (end > 0) gain(movement(after.currency), end);
      continue;
    }
    const currency = (after ?? before)?.currency;
    if (!currency || (start === 0 && end === 0)) continue;
    const row = movement(currency);
    row.startMinor += start;
    row.endMinor += end;
    if (end > 0) row.payingAtEnd++;
    if (start === 0) {
      row.newMinor += end;
      row.newCount++;
    } else if (end === 0) {
      row.churnedMinor += start;
      row.churnedCount++;
    } else if (end > start) {
      row.expansionMinor += end - start;
      row.expansionCount++;
    } else if (end < start) {
      row.contractionMinor += start - end;
      row.contractionCount++;
    }
  }
  return [...byCurrency.values()].sort((a, b) => a.currency.localeCompare(b.currency));
}

function churn(row: MrrMovement, start: number): void {
  row.startMinor += start;
  row.churnedMinor += start;
  row.churnedCount++;
}

function gain(row: MrrMovement, end: number): void {
  row.endMinor += end;
  row.newMinor += end;
  row.newCount++;
  row.payingAtEnd++;
}

/** A trial as the dashboard counts it: when it started, and when (if ever) it became paid. */
export interface TrialStart {
  startedAt: Date;
  convertedAt: Date | null;
}

/**
 * The trials started in [from, to) and how many of them became paid within 60 days of their own
 * start. Final once `now` is 60 days past the period's end.
 */
export function trialCohort(
  trials: readonly TrialStart[],
  from: Date,
  to: Date,
  now: Date,
): TrialCohort {
  const started = trials.filter((trial) => trial.startedAt >= from && trial.startedAt < to);
  const converted = started.filter(
    (trial) =>
      trial.convertedAt !== null &&
      trial.convertedAt.getTime() - trial.startedAt.getTime() <= CONVERSION_DAYS * DAY_MS,
  );
  return {
    started: started.length,
    converted: converted.length,
    final: now.getTime() >= to.getTime() + CONVERSION_DAYS * DAY_MS,
  };
}

/** `YYYY-MM` of a UTC instant. */
export function monthOf(instant: Date): string {
  return instant.toISOString().slice(0, 7);
}

/** The first instant of a `YYYY-MM` month, UTC. */
export function monthStart(month: string): Date {
  return new Date(`${month}-01T00:00:00.000Z`);
}

/** The month `count` months after (before, if negative) `month`. */
export function addMonths(month: string, count: number): string {
  const start = monthStart(month);
  return monthOf(new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + count, 1)));
}

/** The `count` months ending with `month`, oldest first. */
export function monthsEndingWith(month: string, count: number): string[] {
  return Array.from({ length: count }, (_, index) => addMonths(month, index - count + 1));
}

/** The UTC days (`YYYY-MM-DD`) of [from, to), oldest first. */
export function daysBetween(from: Date, to: Date): string[] {
  const days: string[] = [];
  for (let at = from.getTime(); at < to.getTime(); at += DAY_MS) {
    days.push(new Date(at).toISOString().slice(0, 10));
  }
  return days;
}

/**
 * Each day's usage: the orgs in use (seen on or before the day, last seen on or after it) and
 * the validations answered, all of them and those refused (decision 244).
 */
export function usagePerDay(
  spans: readonly { firstSeenAt: Date; lastSeenAt: Date }[],
  counts: readonly { day: string; code: string; answers: number }[],
  days: readonly string[],
): UsageDay[] {
  const validations = new Map<string, { validations: number; refused: number }>();
  for (const { day, code, answers } of counts) {
    const sums = validations.get(day) ?? { validations: 0, refused: 0 };
    sums.validations += answers;
    if (code !== 'VALID') sums.refused += answers;
    validations.set(day, sums);
  }
  return orgsPerDay(spans, days).map(({ day, orgs }) => ({
    day,
    orgs,
    ...(validations.get(day) ?? { validations: 0, refused: 0 }),
  }));
}

/** Orgs in use each day: seen on or before the day, and last seen on or after it. */
export function orgsPerDay(
  spans: readonly { firstSeenAt: Date; lastSeenAt: Date }[],
  days: readonly string[],
): { day: string; orgs: number }[] {
  return days.map((day) => {
    const start = new Date(`${day}T00:00:00.000Z`).getTime();
    const end = start + DAY_MS;
    const orgs = spans.filter(
      (span) => span.firstSeenAt.getTime() < end && span.lastSeenAt.getTime() >= start,
    ).length;
    return { day, orgs };
  });
}
