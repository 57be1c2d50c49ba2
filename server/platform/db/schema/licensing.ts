import {
  bigint,
  boolean,
  date,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { licences } from './licences.ts';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true });

/** Salesforce orgs (canonical 18-character ids) that validated a licence. */
export const licenceOrgs = pgTable(
  'licence_orgs',
  {
    licenceId: uuid('licence_id')
      .notNull()
      .references(() => licences.id, { onDelete: 'cascade' }),
    orgId: text('org_id').notNull(),
    firstSeenAt: timestamptz('first_seen_at').notNull().defaultNow(),
    lastSeenAt: timestamptz('last_seen_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.licenceId, table.orgId] })],
);

export const accessTokenOrigins = ['self-service', 'operator'] as const;
export type AccessTokenOrigin = (typeof accessTokenOrigins)[number];

/** Tokens that stand in for a licence key; `token_hash` is an HMAC, the token is shown once. */
export const accessTokens = pgTable(
  'access_tokens',
  {
    id: uuid('id').primaryKey(),
    licenceId: uuid('licence_id')
      .notNull()
      .references(() => licences.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    /** The last characters, so a customer can tell their tokens apart. */
    tokenHint: text('token_hint').notNull(),
    name: text('name').notNull(),
    createdVia: text('created_via', { enum: accessTokenOrigins }).notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    lastUsedAt: timestamptz('last_used_at'),
    revokedAt: timestamptz('revoked_at'),
  },
  (table) => [index('access_tokens_licence_id_idx').on(table.licenceId)],
);

/** Orgs released from their licence's quota (decision 228): the customer's are capped. */
export const licenceOrgReleases = pgTable(
  'licence_org_releases',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    licenceId: uuid('licence_id')
      .notNull()
      .references(() => licences.id, { onDelete: 'cascade' }),
    orgId: text('org_id').notNull(),
    releasedAt: timestamptz('released_at').notNull(),
    byCustomer: boolean('by_customer').notNull(),
  },
  (table) => [
    index('licence_org_releases_licence_idx').on(table.licenceId, table.releasedAt),
    index('licence_org_releases_released_at_idx').on(table.releasedAt),
  ],
);

/** Licence validations answered per UTC day and code, added by each instance once a minute (decision 244). */
export const validationDays = pgTable(
  'validation_days',
  {
    day: date('day', { mode: 'string' }).notNull(),
    code: text('code').notNull(),
    answers: bigint('answers', { mode: 'number' }).notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.day, table.code] })],
);
