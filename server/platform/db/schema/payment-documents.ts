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

/** The last invoice/receipt number given out per year (decision 180). */
export const paymentDocumentCounters = pgTable('payment_document_counters', {
  year: integer('year').primaryKey(),
  lastNumber: integer('last_number').notNull(),
});

/**
 * The invoice or receipt of a payment (decision 180): `document` is what the PDF shows, frozen at
 * issue; the figures are also columns for queries and checks.
 */
export const paymentDocuments = pgTable(
  'payment_documents',
  {
    number: text('number').primaryKey(),
    year: integer('year').notNull(),
    sequence: integer('sequence').notNull(),
    kind: text('kind', { enum: ['receipt', 'invoice'] }).notNull(),
    provider: text('provider').notNull(),
    providerInvoiceId: text('provider_invoice_id').notNull(),
    subscriptionId: text('subscription_id').notNull(),
    buyerEmail: text('buyer_email').notNull(),
    buyerEmailNormalized: normalizedEmailOf('buyer_email').notNull(),
    issuedOn: date('issued_on').notNull(),
    currency: text('currency').notNull(),
    netMinor: bigint('net_minor', { mode: 'number' }).notNull(),
    vatRatePercent: integer('vat_rate_percent').notNull(),
    vatMinor: bigint('vat_minor', { mode: 'number' }).notNull(),
    grossMinor: bigint('gross_minor', { mode: 'number' }).notNull(),
    document: jsonb('document').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    unique().on(table.year, table.sequence),
    unique().on(table.provider, table.providerInvoiceId),
    index('payment_documents_subscription_idx').on(table.subscriptionId, table.createdAt),
    index('payment_documents_created_idx').on(table.createdAt),
    index('payment_documents_issued_on_idx').on(table.issuedOn),
    index('payment_documents_buyer_email_normalized_idx').on(table.buyerEmailNormalized),
  ],
);
