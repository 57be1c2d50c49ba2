import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const licenceTypes = ['Trial', 'Free', 'Paid'] as const;
export type LicenceType = (typeof licenceTypes)[number];
export const editions = ['Starter', 'Pro', 'Enterprise'] as const;
export type Edition = (typeof editions)[number];
/** Lifecycle states (docs/product-rules.md#behaviour); the database does not constrain them so the lifecycle can add more. */
export const licenceStatuses = ['Active', 'Deactivated', 'Cancelled'] as const;
export type LicenceStatus = (typeof licenceStatuses)[number];

const timestamptz = (name: string) => timestamp(name, { withTimezone: true });

/** Licences of every type; `key_hash` is an HMAC of the key, which itself is only ever e-mailed. */
export const licences = pgTable(
  'licences',
  {
    id: uuid('id').primaryKey(),
    type: text('type', { enum: licenceTypes }).notNull(),
    edition: text('edition', { enum: editions }).notNull(),
    quantity: integer('quantity').notNull().default(1),
    status: text('status', { enum: licenceStatuses }).notNull().default('Active'),
    email: text('email').notNull(),
    emailNormalized: text('email_normalized').notNull(),
    keyHash: text('key_hash').notNull().unique(),
    /** The last group of the key, so support can tell keys apart without storing them. */
    keyHint: text('key_hint').notNull(),
    productId: text('product_id').notNull(),
    referralCode: text('referral_code'),
    expiresAt: timestamptz('expires_at'),
    customerId: text('customer_id'),
    subscriptionId: text('subscription_id').unique(),
    subscriptionStatus: text('subscription_status'),
    deactivatedAt: timestamptz('deactivated_at'),
    deletionScheduledAt: timestamptz('deletion_scheduled_at'),
    /**
     * The earliest time the lifecycle sweep may have work on this licence; kept by a trigger
     * (migration 0811, decision 175), never written by the code. Null = nothing to do.
     */
    nextLifecycleAt: timestamptz('next_lifecycle_at'),
    /** Set by an operator (decision 086); payment events never change it. */
    revokedAt: timestamptz('revoked_at'),
    revocationReason: text('revocation_reason'),
    /** The stop under `revoked_at` is support's suspension, not a revocation (decision 248). */
    suspended: boolean('suspended').notNull().default(false),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (table) => [
    index('licences_email_normalized_idx').on(table.emailNormalized),
    index('licences_customer_id_idx').on(table.customerId),
    index('licences_next_lifecycle_idx')
      .on(table.nextLifecycleAt)
      .where(sql`${table.nextLifecycleAt} is not null`),
  ],
);

/**
 * One row per normalized e-mail address that ever held a licence (keyed hash only). Its primary
 * key is what refuses a second trial; rows outlive the licences they came from.
 */
export const trialClaims = pgTable('trial_claims', {
  emailHash: text('email_hash').primaryKey(),
  firstLicenceId: uuid('first_licence_id').notNull(),
  firstLicenceType: text('first_licence_type', { enum: licenceTypes }).notNull(),
  claimedAt: timestamptz('claimed_at').notNull().defaultNow(),
});

/** Referral codes accepted with trial requests, stored upper case. */
export const referralCodes = pgTable('referral_codes', {
  code: text('code').primaryKey(),
  disabled: boolean('disabled').notNull().default(false),
  note: text('note'),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
});
