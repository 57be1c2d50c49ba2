import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { VatIdConfirmation } from '#shared/pricing/vat-id-confirmation.ts';
import { licences } from './licences.ts';
import { normalizedEmailOf } from './normalized-email.ts';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true });
const providers = ['stripe', 'local'] as const;
const editionColumn = () => text('edition', { enum: ['Starter', 'Pro', 'Enterprise'] }).notNull();
const billingPeriodColumn = () => text('billing_period', { enum: ['monthly', 'yearly'] }).notNull();
const currencyColumn = () => text('currency', { enum: ['USD', 'EUR'] }).notNull();

/** What the sync of one provider event did (decision 235). */
export const paymentEventOutcomes = ['applied', 'ignored', 'stale', 'pending', 'failed'] as const;
export type PaymentEventOutcome = (typeof paymentEventOutcomes)[number];

/** Provider events already applied (primary key = the redelivery guard). */
export const paymentEvents = pgTable(
  'payment_events',
  {
    provider: text('provider', { enum: providers }).notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    subscriptionId: text('subscription_id'),
    processedAt: timestamptz('processed_at').notNull().defaultNow(),
    /** Orders the event log and is its page cursor (decision 235). */
    seq: bigint('seq', { mode: 'number' }).generatedByDefaultAsIdentity(),
    /** What its sync did; null for events recorded before outcomes were kept. */
    outcome: text('outcome', { enum: paymentEventOutcomes }),
    /** Why it failed (`outcome` = `failed`), shortened. */
    error: text('error'),
    /** Deliveries of this event id; more than one means duplicates arrived. */
    deliveries: integer('deliveries').notNull().default(1),
    lastReceivedAt: timestamptz('last_received_at'),
  },
  (table) => [
    primaryKey({ columns: [table.provider, table.eventId] }),
    uniqueIndex('payment_events_seq_idx').on(table.seq),
    index('payment_events_outcome_idx').on(table.outcome, table.seq),
  ],
);

/** Each subscription as last read from its provider, and the licence it pays for. */
export const subscriptions = pgTable(
  'subscriptions',
  {
    provider: text('provider', { enum: providers }).notNull(),
    subscriptionId: text('subscription_id').notNull(),
    licenceId: uuid('licence_id').references(() => licences.id, { onDelete: 'set null' }),
    licenceOrigin: text('licence_origin', { enum: ['issued', 'converted'] }),
    customerId: text('customer_id').notNull(),
    status: text('status').notNull(),
    edition: editionColumn(),
    quantity: integer('quantity').notNull(),
    billingPeriod: billingPeriodColumn(),
    currency: currencyColumn(),
    currentPeriodEnd: timestamptz('current_period_end').notNull(),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull(),
    endedAt: timestamptz('ended_at'),
    endedForNonPayment: boolean('ended_for_non_payment').notNull().default(false),
    collection: text('collection', { enum: ['card', 'invoice'] })
      .notNull()
      .default('card'),
    openInvoiceId: text('open_invoice_id'),
    openInvoiceNumber: text('open_invoice_number'),
    openInvoiceUrl: text('open_invoice_url'),
    openInvoiceDueAt: timestamptz('open_invoice_due_at'),
    /** What the open invoice still owes, gross, minor units (decision 245); null before 0998. */
    openInvoiceAmountMinor: bigint('open_invoice_amount_minor', { mode: 'number' }),
    /** The address that pays, kept only where the licence is a holder's (decision 223). */
    billingEmail: text('billing_email'),
    billingEmailNormalized: normalizedEmailOf('billing_email'),
    snapshotReadAt: timestamptz('snapshot_read_at').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.provider, table.subscriptionId] }),
    index('subscriptions_licence_id_idx').on(table.licenceId),
    index('subscriptions_customer_id_idx').on(table.customerId),
    index('subscriptions_open_invoice_due_idx')
      .on(table.openInvoiceDueAt, table.provider, table.subscriptionId)
      .where(sql`${table.collection} = 'invoice' and ${table.openInvoiceDueAt} is not null`),
    index('subscriptions_billing_email_normalized_idx')
      .on(table.billingEmailNormalized)
      .where(sql`${table.billingEmailNormalized} is not null`),
  ],
);

/** Reminders already sent for an open invoice (decision 144): the key makes each one once. */
export const invoiceReminders = pgTable(
  'invoice_reminders',
  {
    provider: text('provider', { enum: providers }).notNull(),
    invoiceId: text('invoice_id').notNull(),
    stage: integer('stage').notNull(),
    subscriptionId: text('subscription_id').notNull(),
    sentAt: timestamptz('sent_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.provider, table.invoiceId, table.stage] })],
);

/**
 * The local payment provider's customers: one per buyer and currency, like Stripe's (decision
 * 093); the test card on file decides every charge.
 */
export const localCustomers = pgTable(
  'local_customers',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    emailNormalized: text('email_normalized').notNull(),
    currency: currencyColumn(),
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    cardOutcome: text('card_outcome', { enum: ['succeeds', 'declines'] }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [
    unique('local_customers_email_currency_key').on(table.emailNormalized, table.currency),
  ],
);

export const localCheckoutSessions = pgTable(
  'local_checkout_sessions',
  {
    id: text('id').primaryKey(),
    checkoutRequestId: text('checkout_request_id').notNull().unique(),
    status: text('status', { enum: ['open', 'complete', 'expired'] })
      .notNull()
      .default('open'),
    edition: editionColumn(),
    quantity: integer('quantity').notNull(),
    billingPeriod: billingPeriodColumn(),
    currency: currencyColumn(),
    customerEmail: text('customer_email'),
    customerEmailNormalized: normalizedEmailOf('customer_email'),
    licenceIdToConvert: uuid('licence_id_to_convert'),
    /** The quote this checkout accepts once paid (decision 214). */
    quoteNumber: text('quote_number'),
    /** The buyer named before paying (decision 219): copied onto every invoice of the subscription. */
    companyName: text('company_name'),
    /** The address as printed, one line each (`\n`). */
    billingAddress: text('billing_address'),
    country: text('country'),
    vatId: text('vat_id'),
    vatIdConfirmation: jsonb('vat_id_confirmation').$type<VatIdConfirmation>(),
    /** Who the licence is for when not the paying address (decision 223). */
    licenceHolderEmail: text('licence_holder_email'),
    licenceHolderEmailNormalized: normalizedEmailOf('licence_holder_email'),
    successUrl: text('success_url').notNull(),
    cancelUrl: text('cancel_url').notNull(),
    customerId: text('customer_id').references(() => localCustomers.id),
    subscriptionId: text('subscription_id'),
    expiresAt: timestamptz('expires_at').notNull(),
    completedAt: timestamptz('completed_at'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [
    index('local_checkout_sessions_customer_email_normalized_idx')
      .on(table.customerEmailNormalized)
      .where(sql`${table.customerEmailNormalized} is not null`),
    index('local_checkout_sessions_licence_holder_email_normalized_idx')
      .on(table.licenceHolderEmailNormalized)
      .where(sql`${table.licenceHolderEmailNormalized} is not null`),
  ],
);

export const localSubscriptions = pgTable(
  'local_subscriptions',
  {
    id: text('id').primaryKey(),
    customerId: text('customer_id')
      .notNull()
      .references(() => localCustomers.id),
    status: text('status').notNull(),
    edition: editionColumn(),
    quantity: integer('quantity').notNull(),
    billingPeriod: billingPeriodColumn(),
    currency: currencyColumn(),
    currentPeriodStart: timestamptz('current_period_start').notNull(),
    currentPeriodEnd: timestamptz('current_period_end').notNull(),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    canceledAt: timestamptz('canceled_at'),
    endedAt: timestamptz('ended_at'),
    endedForNonPayment: boolean('ended_for_non_payment').notNull().default(false),
    licenceIdToConvert: uuid('licence_id_to_convert'),
    /** The quote its checkout accepts once paid (decision 214). */
    quoteNumber: text('quote_number'),
    /** Who the licence is for when not the customer's address (decision 223). */
    licenceHolderEmail: text('licence_holder_email'),
    licenceHolderEmailNormalized: normalizedEmailOf('licence_holder_email'),
    collectionMethod: text('collection_method', {
      enum: ['charge_automatically', 'send_invoice'],
    })
      .notNull()
      .default('charge_automatically'),
    failedPaymentAttempts: integer('failed_payment_attempts').notNull().default(0),
    nextPaymentAttemptAt: timestamptz('next_payment_attempt_at'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (table) => [
    index('local_subscriptions_due_idx').on(table.currentPeriodEnd),
    index('local_subscriptions_licence_holder_email_normalized_idx')
      .on(table.licenceHolderEmailNormalized)
      .where(sql`${table.licenceHolderEmailNormalized} is not null`),
  ],
);

/** Charges and credits of local subscriptions, in minor units (cents) like Stripe's. */
export const localInvoices = pgTable(
  'local_invoices',
  {
    id: text('id').primaryKey(),
    subscriptionId: text('subscription_id')
      .notNull()
      .references(() => localSubscriptions.id),
    status: text('status', { enum: ['paid', 'open', 'void'] }).notNull(),
    amount: integer('amount').notNull(),
    currency: currencyColumn(),
    description: text('description').notNull(),
    periodStart: timestamptz('period_start').notNull(),
    periodEnd: timestamptz('period_end').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    paidAt: timestamptz('paid_at'),
    /** The fields of an invoice sent for payment (decision 145); null on card charges. */
    number: text('number').unique(),
    dueAt: timestamptz('due_at'),
    companyName: text('company_name'),
    billingEmail: text('billing_email'),
    billingEmailNormalized: normalizedEmailOf('billing_email'),
    billingAddress: text('billing_address'),
    vatId: text('vat_id'),
    poReference: text('po_reference'),
    quoteReference: text('quote_reference'),
    /** The buyer's country (ISO code) of an invoice sent for payment, for the VAT rule. */
    country: text('country'),
    /** VIES's confirmation of `vatId` the reverse charge rests on (decision 210). */
    vatIdConfirmation: jsonb('vat_id_confirmation').$type<VatIdConfirmation>(),
  },
  (table) => [
    index('local_invoices_subscription_idx').on(table.subscriptionId, table.createdAt),
    index('local_invoices_billing_email_normalized_idx')
      .on(table.billingEmailNormalized)
      .where(sql`${table.billingEmailNormalized} is not null`),
  ],
);

/**
 * The local test provider's credits of an invoice or charge (decision 220), as Stripe's credit
 * notes: `amount` taken off an open invoice or, of a paid one, `refunded`; one per idempotency key.
 */
export const localCredits = pgTable(
  'local_credits',
  {
    id: text('id').primaryKey(),
    invoiceId: text('invoice_id').notNull(),
    amount: integer('amount').notNull(),
    refunded: integer('refunded').notNull(),
    reason: text('reason').notNull(),
    idempotencyKey: text('idempotency_key').notNull().unique(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (table) => [
    index('local_credits_invoice_idx').on(table.invoiceId),
    index('local_credits_created_idx').on(table.createdAt),
  ],
);

export const localPortalSessions = pgTable('local_portal_sessions', {
  id: text('id').primaryKey(),
  customerId: text('customer_id')
    .notNull()
    .references(() => localCustomers.id),
  returnUrl: text('return_url').notNull(),
  expiresAt: timestamptz('expires_at').notNull(),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
});
