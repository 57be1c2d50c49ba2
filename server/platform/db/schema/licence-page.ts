import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { licences } from './licences.ts';
import { operators } from './operators.ts';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true });

/** A code and link e-mailed to sign in to the licence page (decision 229): hashes only. */
export const licencePageSignIns = pgTable(
  'licence_page_sign_ins',
  {
    id: uuid('id').primaryKey(),
    emailNormalized: text('email_normalized').notNull(),
    codeHash: text('code_hash').notNull(),
    linkHash: text('link_hash').notNull().unique(),
    createdAt: timestamptz('created_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    usedAt: timestamptz('used_at'),
  },
  (table) => [
    index('licence_page_sign_ins_email_idx').on(table.emailNormalized, table.createdAt),
    index('licence_page_sign_ins_expires_idx').on(table.expiresAt),
  ],
);

/** A signed-in session of the licence page: the keyed hash of its cookie's value. */
export const licencePageSessions = pgTable(
  'licence_page_sessions',
  {
    idHash: text('id_hash').primaryKey(),
    emailNormalized: text('email_normalized').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    endedAt: timestamptz('ended_at'),
  },
  (table) => [
    index('licence_page_sessions_expires_idx').on(table.expiresAt),
    index('licence_page_sessions_email_idx').on(table.emailNormalized),
  ],
);

export const changeRequestKinds = ['seats', 'plan', 'cancel'] as const;
export const changeRequestStatuses = ['open', 'done', 'declined'] as const;

/**
 * "Request a change" of a subscription paid by invoice (migration 0980, decision 236): waits in
 * the console's approvals queue; one open request per subscription.
 */
export const subscriptionChangeRequests = pgTable(
  'subscription_change_requests',
  {
    id: uuid('id').primaryKey(),
    provider: text('provider').notNull(),
    subscriptionId: text('subscription_id').notNull(),
    licenceId: uuid('licence_id').references(() => licences.id, { onDelete: 'set null' }),
    emailNormalized: text('email_normalized').notNull(),
    kind: text('kind', { enum: changeRequestKinds }).notNull(),
    seats: integer('seats'),
    edition: text('edition', { enum: ['Starter', 'Pro', 'Enterprise'] }),
    message: text('message'),
    status: text('status', { enum: changeRequestStatuses }).notNull().default('open'),
    createdAt: timestamptz('created_at').notNull(),
    answeredAt: timestamptz('answered_at'),
    answeredBy: text('answered_by'),
    answerReason: text('answer_reason'),
  },
  (table) => [
    uniqueIndex('subscription_change_requests_open_idx')
      .on(table.provider, table.subscriptionId)
      .where(sql`status = 'open'`),
    index('subscription_change_requests_status_idx').on(table.status, table.createdAt),
    index('subscription_change_requests_email_idx').on(table.emailNormalized),
    index('subscription_change_requests_answered_idx').on(table.answeredAt),
  ],
);

/** An operator's read-only view of an address's licence page (migration 0981, decision 236). */
export const customerViews = pgTable(
  'customer_views',
  {
    id: uuid('id').primaryKey(),
    operatorId: uuid('operator_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    emailNormalized: text('email_normalized').notNull(),
    reason: text('reason').notNull(),
    startedAt: timestamptz('started_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    endedAt: timestamptz('ended_at'),
    endKind: text('end_kind', { enum: ['ended', 'expired'] }),
  },
  (table) => [
    index('customer_views_operator_idx').on(table.operatorId, table.startedAt),
    index('customer_views_email_idx').on(table.emailNormalized),
    index('customer_views_expires_idx').on(table.expiresAt),
  ],
);
