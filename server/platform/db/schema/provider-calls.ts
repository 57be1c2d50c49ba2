import { sql } from 'drizzle-orm';
import {
  bigserial,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true });

export const providerCallKinds = ['cancel', 'resync'] as const;
export type ProviderCallKind = (typeof providerCallKinds)[number];

/** The lifecycle sweep's provider calls, made after its transactions and retried (decision 246). */
export const providerCalls = pgTable(
  'provider_calls',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind', { enum: providerCallKinds }).notNull(),
    subscriptionId: text('subscription_id').notNull(),
    status: text('status', { enum: ['pending', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamptz('next_attempt_at').notNull(),
    leasedUntil: timestamptz('leased_until'),
    lastError: text('last_error'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (table) => [
    uniqueIndex('provider_calls_waiting_idx')
      .on(table.kind, table.subscriptionId)
      .where(sql`${table.status} = 'pending'`),
    index('provider_calls_due_idx')
      .on(table.nextAttemptAt)
      .where(sql`${table.status} = 'pending'`),
    index('provider_calls_failed_idx')
      .on(table.nextAttemptAt)
      .where(sql`${table.status} = 'failed'`),
  ],
);
