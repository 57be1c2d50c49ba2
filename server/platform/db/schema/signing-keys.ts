import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** What a signing key signs; each purpose has keys of its own (decisions 087, 140 and 171). */
export const signingKeyPurposes = ['licence-certificate', 'release'] as const;
export type SigningKeyPurpose = (typeof signingKeyPurposes)[number];

/**
 * The public halves of the Ed25519 keys that signed licence certificates or releases (migration
 * 0800, decision 171), with when an instance first and last signed with each: retired licence keys
 * stay in the key set while their certificates can be valid, release keys are kept for good.
 * Private keys are never stored here.
 */
export const signingKeys = pgTable('signing_keys', {
  keyId: text('key_id').primaryKey(),
  purpose: text('purpose', { enum: signingKeyPurposes }).notNull(),
  publicKeyPem: text('public_key_pem').notNull(),
  firstUsedAt: timestamp('first_used_at', { withTimezone: true }).notNull(),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull(),
});
