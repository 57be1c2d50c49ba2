import { and, desc, eq, gte, lte } from 'drizzle-orm';
import type { Executor } from '#server/platform/db/database.ts';
import { fxRates } from '#server/platform/db/schema.ts';
import { rateMillionths, type RecordedRate } from './euro-amounts.ts';

export type StoredFxRate = typeof fxRates.$inferSelect;

export function createFxRateRepository(db: Executor) {
  return {
    /**
     * The latest rate of `currency` dated on or before `day` (decision 221): the ECB's rate of
     * the day once it is published (about 16:00 CET), before that the day before's, and over a
     * weekend or holiday the last working day's.
     */
    async latestOnOrBefore(currency: string, day: string): Promise<RecordedRate | undefined> {
      const [row] = await db
        .select()
        .from(fxRates)
        .where(and(eq(fxRates.currency, currency), lte(fxRates.rateOn, day)))
        .orderBy(desc(fxRates.rateOn))
        .limit(1);
      return row;
    },

    find(currency: string, day: string): Promise<StoredFxRate | undefined> {
      return db
        .select()
        .from(fxRates)
        .where(and(eq(fxRates.currency, currency), eq(fxRates.rateOn, day)))
        .limit(1)
        .then((rows) => rows[0]);
    },

    /** Records a rate; an existing one of the same day is replaced only when `replace` says so. */
    async record(
      rate: Omit<StoredFxRate, 'recordedAt'> & { recordedAt: Date },
      replace: boolean,
    ): Promise<'recorded' | 'replaced' | 'unchanged' | 'conflict'> {
      const inserted = await db.insert(fxRates).values(rate).onConflictDoNothing().returning();
      if (inserted.length > 0) return 'recorded';
      const existing = await this.find(rate.currency, rate.rateOn);
      if (
        existing &&
        rateMillionths(existing.perEur) === rateMillionths(rate.perEur) &&
        existing.source === rate.source
      ) {
        return 'unchanged';
      }
      if (!replace) return 'conflict';
      await db
        .update(fxRates)
        .set({
          perEur: rate.perEur,
          source: rate.source,
          recordedAt: rate.recordedAt,
          recordedBy: rate.recordedBy,
        })
        .where(and(eq(fxRates.currency, rate.currency), eq(fxRates.rateOn, rate.rateOn)));
      return 'replaced';
    },

    /** Rates from `from` to `to`, newest first. */
    list(range: { currency?: string; from: string; to: string }): Promise<StoredFxRate[]> {
      return db
        .select()
        .from(fxRates)
        .where(
          and(
            range.currency ? eq(fxRates.currency, range.currency) : undefined,
            gte(fxRates.rateOn, range.from),
            lte(fxRates.rateOn, range.to),
          ),
        )
        .orderBy(desc(fxRates.rateOn), fxRates.currency);
    },
  };
}
