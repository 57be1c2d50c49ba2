import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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
