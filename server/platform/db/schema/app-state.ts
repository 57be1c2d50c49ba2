import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Small named values the instance keeps, e.g. the generated secret key when none is configured. */
export const appState = pgTable('app_state', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Written by the migration runner (server/platform/db/migrate.ts), one row per applied SQL file. */
export const schemaMigrations = pgTable('schema_migrations', {
  name: text('name').primaryKey(),
  appliedAt: timestamp('applied_at', { withTimezone: true }).notNull().defaultNow(),
});
