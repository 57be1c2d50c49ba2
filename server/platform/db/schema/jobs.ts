import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Cluster jobs' claims and last runs (server/platform/jobs, decision 174). */
export const jobRuns = pgTable('job_runs', {
  name: text('name').primaryKey(),
  nextRunAt: timestamp('next_run_at', { withTimezone: true }).notNull(),
  claimedBy: text('claimed_by'),
  leasedUntil: timestamp('leased_until', { withTimezone: true }),
  lastStartedAt: timestamp('last_started_at', { withTimezone: true }),
  lastFinishedAt: timestamp('last_finished_at', { withTimezone: true }),
  lastDurationMs: integer('last_duration_ms'),
  lastRows: integer('last_rows'),
  lastError: text('last_error'),
});
