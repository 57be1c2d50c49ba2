import { bigint, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { normalizedEmailOf } from './normalized-email.ts';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true });

/**
 * The audit log's chain (migration 0940, decision 224): one row per change, written only by the
 * database function `audit_append` (triggers and `recordAuditEvent`); never updated or deleted.
 * It holds no personal data: a customer actor reads `customer`, targets are ids.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    occurredAt: timestamptz('occurred_at').notNull(),
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    requestId: text('request_id'),
    detailsDigest: text('details_digest').notNull(),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (table) => [
    index('audit_events_target_idx').on(table.targetType, table.targetId, table.id),
    index('audit_events_occurred_at_idx').on(table.occurredAt),
  ],
);

/** What an event may hold that is personal; deleted by an erasure or the retention job only. */
export const auditEventDetails = pgTable(
  'audit_event_details',
  {
    eventId: bigint('event_id', { mode: 'number' })
      .primaryKey()
      .references(() => auditEvents.id),
    occurredAt: timestamptz('occurred_at').notNull(),
    salt: text('salt').notNull(),
    actor: text('actor').notNull(),
    reason: text('reason'),
    subjectEmail: text('subject_email'),
    subjectEmailNormalized: normalizedEmailOf('subject_email'),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (table) => [
    index('audit_event_details_subject_idx').on(table.subjectEmailNormalized),
    index('audit_event_details_occurred_at_idx').on(table.occurredAt),
  ],
);
