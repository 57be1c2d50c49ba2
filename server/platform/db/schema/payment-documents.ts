import {
  bigint,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { normalizedEmailOf } from './normalized-email.ts';

/**
 * The last INV number given out per year (decision 180), as the release before decision 220
 * counted; kept for it during a rolling deploy, no longer written.
 */
export const paymentDocumentCounters = pgTable('payment_document_counters', {
  year: integer('year').primaryKey(),
  lastNumber: integer('last_number').notNull(),
});

/** The last number given out per series (`INV`, `CN`) and year (decisions 180, 220). */
export const paymentDocumentSeriesCounters = pgTable(
  'payment_document_series_counters',
  {
    series: text('series').notNull(),
    year: integer('year').notNull(),
    lastNumber: integer('last_number').notNull(),
  },
  (table) => [primaryKey({ columns: [table.series, table.year] })],
);

/**
 * The invoice or receipt of a payment (decision 180), or the credit note that corrects one
 * (decision 220): `document` is what the PDF shows, frozen at issue; the figures are also columns
 * for queries and checks. A credit note's amounts are positive and `creditsNumber` names the
 * invoice or receipt it corrects.
 */
export const paymentDocuments = pgTable(
  'payment_documents',
  {
    number: text('number').primaryKey(),
    year: integer('year').notNull(),
    sequence: integer('sequence').notNull(),
    kind: text('kind', { enum: ['receipt', 'invoice', 'credit_note'] }).notNull(),
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
    /** The invoice or receipt a credit note corrects (decision 220). */
    creditsNumber: text('credits_number'),
    /** When the money of an invoice or receipt arrived; null while it is owed. */
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** The refund or cancellation a credit note answers: one credit note per action. */
    idempotencyKey: text('idempotency_key'),
  },
  (table) => [
    unique().on(table.provider, table.providerInvoiceId),
    index('payment_documents_subscription_idx').on(table.subscriptionId, table.createdAt),
    index('payment_documents_created_idx').on(table.createdAt),
    index('payment_documents_issued_on_idx').on(table.issuedOn),
    index('payment_documents_buyer_email_normalized_idx').on(table.buyerEmailNormalized),
    index('payment_documents_credits_idx').on(table.creditsNumber),
    uniqueIndex('payment_documents_idempotency_idx').on(table.idempotencyKey),
  ],
);
