import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** The instances running on this database, each renewing `seen_at` (decision 195). */
export const liveInstances = pgTable(
  'live_instances',
  {
    id: text('id').primaryKey(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('live_instances_seen_idx').on(table.seenAt)],
);
