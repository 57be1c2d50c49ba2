import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { normalizedEmailOf } from './normalized-email.ts';

/** Messages sent through the contact form. */
export const contactMessages = pgTable(
  'contact_messages',
  {
    id: uuid('id').primaryKey(),
    email: text('email').notNull(),
    emailNormalized: normalizedEmailOf('email').notNull(),
    name: text('name').notNull(),
    message: text('message').notNull(),
    role: text('role'),
    company: text('company'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('contact_messages_email_normalized_idx').on(table.emailNormalized)],
);
