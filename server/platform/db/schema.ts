/**
 * The Drizzle schema: one file per domain, re-exported here. The tables are created by the SQL
 * files in `migrations/`; `schema.test.ts` checks the two agree.
 */
export * from './schema/app-state.ts';
export * from './schema/licences.ts';
export * from './schema/email.ts';
export * from './schema/contact.ts';
export * from './schema/rate-limit.ts';
export * from './schema/billing-portal.ts';
export * from './schema/signing-keys.ts';
export * from './schema/releases.ts';
export * from './schema/payments.ts';
export * from './schema/licensing.ts';
export * from './schema/quotes.ts';
export * from './schema/invoice-orders.ts';
export * from './schema/jobs.ts';
export * from './schema/privacy.ts';
export * from './schema/payment-documents.ts';
export * from './schema/instances.ts';
export * from './schema/fx-rates.ts';
export * from './schema/audit.ts';
export * from './schema/licence-page.ts';
export * from './schema/operators.ts';
export * from './schema/refund-requests.ts';
export * from './schema/provider-calls.ts';
