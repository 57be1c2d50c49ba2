import {
  bigint,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';
import { normalizedEmailOf } from './normalized-email.ts';

/** The last quote number given out per year (decision 142). */
export const quoteNumberCounters = pgTable('quote_number_counters', {
  year: integer('year').primaryKey(),
  lastNumber: integer('last_number').notNull(),
});

/** Quotes made on the pricing page; `document` is what the PDF shows, frozen at creation. */
export const quotes = pgTable(
  'quotes',
  {
    number: text('number').primaryKey(),
    year: integer('year').notNull(),
    sequence: integer('sequence').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    companyName: text('company_name').notNull(),
    email: text('email').notNull(),
    emailNormalized: normalizedEmailOf('email').notNull(),
    billingAddress: text('billing_address'),
    vatId: text('vat_id'),
    purchaseOrder: text('purchase_order'),
    edition: text('edition').notNull(),
    quantity: integer('quantity').notNull(),
    billingPeriod: text('billing_period').notNull(),
    currency: text('currency').notNull(),
    totalCents: bigint('total_cents', { mode: 'number' }).notNull(),
    quoteDate: date('quote_date', { mode: 'string' }).notNull(),
    validUntil: date('valid_until', { mode: 'string' }).notNull(),
    document: jsonb('document').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * `accepted` once an invoice order from it is confirmed (decision 154) or its card checkout is
     * paid (decision 214); expired is derived.
     */
    status: text('status', { enum: ['open', 'accepted'] })
      .notNull()
      .default('open'),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    acceptedBy: text('accepted_by', { enum: ['invoice', 'card'] }),
    acceptedOrderId: text('accepted_order_id'),
    acceptedSubscriptionId: text('accepted_subscription_id'),
    acceptedInvoiceNumber: text('accepted_invoice_number'),
  },
  (table) => [
    unique('quotes_year_sequence_key').on(table.year, table.sequence),
    index('quotes_created_at').on(table.createdAt),
    index('quotes_email_normalized_idx').on(table.emailNormalized),
  ],
);
