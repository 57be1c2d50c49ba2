import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Ids of billing-portal link tokens already followed: each link works once. */
export const billingPortalTokenUses = pgTable('billing_portal_token_uses', {
  tokenId: text('token_id').primaryKey(),
  usedAt: timestamp('used_at', { withTimezone: true }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});
