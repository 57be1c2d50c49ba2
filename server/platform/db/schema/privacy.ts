import { boolean, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Every export and erasure an operator ran (decision 193). `subject_hash` is the keyed hash of the
 * normalized address (purpose `privacy-request`), never the address; `summary` holds counts only.
 */
export const privacyRequests = pgTable(
  'privacy_requests',
  {
    id: uuid('id').primaryKey(),
    kind: text('kind', { enum: ['export', 'erase'] }).notNull(),
    subjectHash: text('subject_hash').notNull(),
    dryRun: boolean('dry_run').notNull().default(false),
    summary: jsonb('summary').notNull(),
    performedAt: timestamp('performed_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('privacy_requests_performed_at_idx').on(table.performedAt),
    index('privacy_requests_subject_idx').on(table.subjectHash),
  ],
);
