import { date, numeric, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Exchange rates to the euro, one per currency and day (decision 221): `perEur` units of the
 * currency buy 1 EUR, as the ECB states its reference rates.
 */
export const fxRates = pgTable(
  'fx_rates',
  {
    currency: text('currency').notNull(),
    rateOn: date('rate_on').notNull(),
    perEur: numeric('per_eur', { precision: 18, scale: 6 }).notNull(),
    source: text('source').notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull(),
    recordedBy: text('recorded_by').notNull(),
  },
  (table) => [primaryKey({ columns: [table.currency, table.rateOn] })],
);
