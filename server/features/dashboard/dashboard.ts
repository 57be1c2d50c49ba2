import type { Executor } from '#server/platform/db/database.ts';
import type { DashboardView, MonthFigures } from '#shared/contracts/console-dashboard.ts';
import {
  addMonths,
  daysBetween,
  monthOf,
  monthsEndingWith,
  monthStart,
  mrrMovements,
  trialCohort,
  usagePerDay,
} from './dashboard-figures.ts';
import {
  activePaidLicences,
  openInvoiceSubscriptions,
  openInvoices,
  orgSpans,
  subscriptionHistories,
  trialStarts,
} from './dashboard-repository.ts';
import { validationCountsBetween } from '#server/licensing/licence-validation/validation-days-repository.ts';

/** How many months the trend shows, the month asked for included. */
export const TREND_MONTHS = 12;

/** The figures of [from, to): trials started and converted, MRR and its movements. */
export async function periodFigures(db: Executor, from: Date, to: Date, now: Date) {
  const [histories, trials] = await Promise.all([
    subscriptionHistories(db, to),
    trialStarts(db, from, to),
  ]);
  return { trials: trialCohort(trials, from, to, now), mrr: mrrMovements(histories, from, to) };
}

/**
 * The founder's morning figures (decision 234) for `month` (`YYYY-MM`, UTC) and the 11 months
 * before it, read at `now`: a month not over yet is read up to `now`.
 */
export async function readDashboard(
  db: Executor,
  month: string,
  now: Date,
): Promise<DashboardView> {
  const months = monthsEndingWith(month, TREND_MONTHS);
  const first = months[0] ?? month;
  const periodEnd = (m: string) => {
    const end = monthStart(addMonths(m, 1));
    return end > now ? now : end;
  };
  const trendEnd = periodEnd(month);
  const [histories, trials] = await Promise.all([
    subscriptionHistories(db, monthStart(addMonths(month, 1))),
    trialStarts(db, monthStart(first), trendEnd),
  ]);
  const figures: MonthFigures[] = months.map((m) => {
    const from = monthStart(m);
    const to = periodEnd(m);
    return {
      month: m,
      trials: trialCohort(trials, from, to, now),
      mrr: mrrMovements(histories, from, to),
    };
  });
  const from = monthStart(month);
  const days = from < trendEnd ? daysBetween(from, trendEnd) : [];
  const [licences, invoices, invoiceSubscriptions, spans, counts] = await Promise.all([
    activePaidLicences(db),
    openInvoices(db, now),
    openInvoiceSubscriptions(db, now),
    orgSpans(db, from, trendEnd),
    validationCountsBetween(db, `${month}-01`, `${addMonths(month, 1)}-01`),
  ]);
  return {
    month,
    readAt: now.toISOString(),
    months: figures,
    activePaidLicences: licences,
    invoices,
    openInvoiceSubscriptions: invoiceSubscriptions,
    usage: usagePerDay(spans, counts, days),
  };
}

/** The month `now` falls in. */
export const currentMonth = (now: Date): string => monthOf(now);
