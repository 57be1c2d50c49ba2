import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { normalizedEmailOf } from './normalized-email.ts';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true });

/**
 * Invoice orders waiting for, or past, the confirmation of their billing address (decision 153);
 * `details` is the validated order, `token_hash` the keyed hash of the e-mailed link's token.
 */
export const invoiceOrders = pgTable(
  'invoice_orders',
  {
    id: text('id').primaryKey(),
    tokenHash: text('token_hash').notNull().unique(),
    status: text('status', {
      enum: ['pending', 'confirming', 'awaiting_approval', 'confirmed', 'rejected', 'cancelled'],
    }).notNull(),
    billingEmail: text('billing_email').notNull(),
    emailNormalized: text('email_normalized').notNull(),
    emailDomain: text('email_domain').notNull(),
    details: jsonb('details').notNull(),
    quoteNumber: text('quote_number'),
    expiresAt: timestamptz('expires_at').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    confirmedAt: timestamptz('confirmed_at'),
    cancelledAt: timestamptz('cancelled_at'),
    cancelledBy: text('cancelled_by', { enum: ['buyer', 'operator', 'quote-accepted'] }),
    provider: text('provider', { enum: ['stripe', 'local'] }),
    subscriptionId: text('subscription_id'),
    invoiceNumber: text('invoice_number'),
    /** Who the licence is for when not the billing address (decision 223); not in `details`. */
    licenceHolderEmail: text('licence_holder_email'),
    licenceHolderEmailNormalized: normalizedEmailOf('licence_holder_email'),
    /** Why it waits for finance (decision 230): `first-order` or `above-threshold`. */
    reviewReason: text('review_reason', { enum: ['first-order', 'above-threshold'] }),
    /** When the buyer was told finance answers by. */
    reviewDueAt: timestamptz('review_due_at'),
    reviewedAt: timestamptz('reviewed_at'),
    /** The actor who approved or rejected it (`operator:<id>`, `cli:<user>`). */
    reviewedBy: text('reviewed_by'),
    rejectionReason: text('rejection_reason'),
  },
  (table) => [
    index('invoice_orders_email_normalized_idx').on(table.emailNormalized),
    index('invoice_orders_email_domain_idx').on(table.emailDomain),
    index('invoice_orders_created_at_idx').on(table.createdAt),
    index('invoice_orders_awaiting_idx')
      .on(table.createdAt)
      .where(sql`${table.status} = 'awaiting_approval'`),
    index('invoice_orders_licence_holder_email_normalized_idx')
      .on(table.licenceHolderEmailNormalized)
      .where(sql`${table.licenceHolderEmailNormalized} is not null`),
  ],
);
