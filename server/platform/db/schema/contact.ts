import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Messages sent through the contact form. */
export const contactMessages = pgTable('contact_messages', {
  id: uuid('id').primaryKey(),
  email: text('email').notNull(),
  name: text('name').notNull(),
  message: text('message').notNull(),
  role: text('role'),
  company: text('company'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
