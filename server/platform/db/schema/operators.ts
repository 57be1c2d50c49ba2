import { bigint, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { normalizedEmailOf } from './normalized-email.ts';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true });

export const operatorRoles = ['owner', 'finance', 'support', 'viewer'] as const;
export const operatorStatuses = ['invited', 'active', 'disabled'] as const;
export const operatorChallengePurposes = ['enrol', 'sign_in', 'step_up'] as const;

/** The people who run the service from the operator console (migration 0950, decision 226). */
export const operators = pgTable(
  'operators',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    emailNormalized: normalizedEmailOf('email').notNull(),
    role: text('role', { enum: operatorRoles }).notNull(),
    status: text('status', { enum: operatorStatuses }).notNull().default('invited'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
    disabledAt: timestamptz('disabled_at'),
  },
  (table) => [uniqueIndex('operators_email_normalized_idx').on(table.emailNormalized)],
);

/** An operator's passkeys: the public key and signature counter of each credential. */
export const operatorPasskeys = pgTable(
  'operator_passkeys',
  {
    credentialId: text('credential_id').primaryKey(),
    operatorId: uuid('operator_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: text('transports').notNull().default(''),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    lastUsedAt: timestamptz('last_used_at'),
  },
  (table) => [index('operator_passkeys_operator_idx').on(table.operatorId)],
);

/** One-time enrolment links; `token_hash` is an HMAC, the link is printed once. */
export const operatorEnrolments = pgTable(
  'operator_enrolments',
  {
    tokenHash: text('token_hash').primaryKey(),
    operatorId: uuid('operator_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    expiresAt: timestamptz('expires_at').notNull(),
    usedAt: timestamptz('used_at'),
  },
  (table) => [index('operator_enrolments_operator_idx').on(table.operatorId)],
);

/** Console sessions, by the HMAC of their cookie's token. */
export const operatorSessions = pgTable(
  'operator_sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    operatorId: uuid('operator_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    createdAt: timestamptz('created_at').notNull(),
    lastSeenAt: timestamptz('last_seen_at').notNull(),
    verifiedAt: timestamptz('verified_at').notNull(),
  },
  (table) => [index('operator_sessions_operator_idx').on(table.operatorId)],
);

/** The challenge of a passkey ceremony under way, used once. */
export const operatorChallenges = pgTable(
  'operator_challenges',
  {
    id: uuid('id').primaryKey(),
    challenge: text('challenge').notNull(),
    purpose: text('purpose', { enum: operatorChallengePurposes }).notNull(),
    operatorId: uuid('operator_id').references(() => operators.id, { onDelete: 'cascade' }),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (table) => [index('operator_challenges_expires_idx').on(table.expiresAt)],
);
