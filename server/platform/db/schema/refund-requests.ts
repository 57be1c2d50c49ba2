import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true });

export const refundRequestStatuses = [
  'pending',
  'refunding',
  'refunded',
  'rejected',
  'failed',
] as const;

/** Refunds asked for in the operator console (migration 0970, decision 233). */
export const refundRequests = pgTable(
  'refund_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reference: text('reference').notNull(),
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    currency: text('currency', { enum: ['EUR', 'USD'] }).notNull(),
    wholeRest: boolean('whole_rest').notNull(),
    reason: text('reason').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    status: text('status', { enum: refundRequestStatuses }).notNull(),
    requestedBy: text('requested_by').notNull(),
    requestedAt: timestamptz('requested_at').notNull(),
    reviewedBy: text('reviewed_by'),
    reviewedAt: timestamptz('reviewed_at'),
    rejectionReason: text('rejection_reason'),
    failure: text('failure'),
    creditNoteNumber: text('credit_note_number'),
    endedSubscription: text('ended_subscription'),
    refundedAt: timestamptz('refunded_at'),
  },
  (table) => [
    uniqueIndex('refund_requests_idempotency_key_idx')
      .on(table.idempotencyKey)
      .where(sql`${table.status} not in ('rejected', 'failed')`),
    index('refund_requests_pending_idx')
      .on(table.requestedAt)
      .where(sql`${table.status} = 'pending'`),
    index('refund_requests_requested_at_idx').on(table.requestedAt),
  ],
);
