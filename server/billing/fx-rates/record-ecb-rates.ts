import { calendarDateIn, isCalendarDate } from '#server/billing/calendar-date.ts';
import type { Executor } from '#server/platform/db/database.ts';
import { isCurrency } from '#shared/pricing/index.ts';
import { siteConfig } from '#shared/site-config.ts';
import { ECB_SOURCE, fetchEcbReferenceRates } from './ecb-reference-rates.ts';
import { normalizeRate } from './euro-amounts.ts';
import { createFxRateRepository } from './fx-rate-repository.ts';

export interface RecordedEcbRate {
  rateOn: string;
  currency: string;
  perEur: string;
  outcome: 'recorded' | 'replaced' | 'unchanged' | 'conflict';
}

/**
 * Fetches the ECB's reference rates from `url` and records those of the currencies we sell in
 * (decision 221), up to today: a day recorded with the same rate is unchanged, a different one is
 * a conflict kept as it was unless `replace`. Throws when the file cannot be read.
 */
export async function recordEcbRates(
  db: Executor,
  input: { url: string; now: Date; recordedBy: string; replace: boolean },
): Promise<RecordedEcbRate[]> {
  const published = await fetchEcbReferenceRates(input.url);
  const today = calendarDateIn(input.now, siteConfig.company.timeZone);
  const repository = createFxRateRepository(db);
  const results: RecordedEcbRate[] = [];
  for (const rate of published) {
    if (!isCurrency(rate.currency) || rate.currency === 'EUR') continue;
    if (!isCalendarDate(rate.rateOn) || rate.rateOn > today) continue;
    const perEur = normalizeRate(rate.perEur);
    const outcome = await repository.record(
      {
        currency: rate.currency,
        rateOn: rate.rateOn,
        perEur,
        source: ECB_SOURCE,
        recordedAt: input.now,
        recordedBy: input.recordedBy,
      },
      input.replace,
    );
    results.push({ rateOn: rate.rateOn, currency: rate.currency, perEur, outcome });
  }
  return results;
}
