import {
  DELETION_NOTICE_MONTHS,
  REACTIVATION_WINDOW_MONTHS,
} from '#server/billing/subscriptions/lifecycle-rules.ts';
import { ORG_RELEASE_WINDOW_DAYS } from '#server/licensing/licence-orgs/release-licence-org.ts';

/**
 * How long each kind of personal data is kept (decision 191). The retention job, the erasure,
 * docs/retention.md and the /privacy page all follow these numbers; tests hold the page and the
 * document to them.
 */
export const retentionPeriods = {
  /** A licence is kept this long after it ends, so it can be reactivated (spec, decision 063)… */
  licenceReactivationMonths: REACTIVATION_WINDOW_MONTHS,
  /** …then marked for deletion and deleted within this long. */
  licenceDeletionMonths: DELETION_NOTICE_MONTHS,
  /** A sent or failed e-mail's record (address, subject): enough to answer "did it go out?". */
  emailDays: 30,
  /** The redelivery guard of provider events; providers redeliver for at most 3 days. */
  paymentEventDays: 90,
  /** A contact message, long enough to answer it and follow up. */
  contactMessageDays: 180,
  /** An org that has not validated for this long no longer counts (30 days) nor is shown. */
  idleOrgDays: 90,
  /** A release of an org counts against the customer's cap this long (decision 228). */
  orgReleaseDays: ORG_RELEASE_WINDOW_DAYS,
  /** Licence page sign-ins and sessions, a day after they ended (decision 229). */
  licencePageSignInDays: 1,
  /** An answered change request of a subscription paid by invoice (decision 236). */
  changeRequestDays: 365,
  /** An operator's view of a customer's licence page, after it expired (decision 236). */
  customerViewDays: 30,
  /** An invoice order that was never confirmed (its link expired or it was cancelled). */
  unconfirmedOrderDays: 60,
  /** The local test provider's expired checkout and portal sessions. */
  localSessionDays: 30,
  /** Invoices and booking records: § 147(3) AO, § 257(4) HGB, § 14b(1) UStG since 2025. */
  invoiceYears: 8,
  /** Commercial letters sent and received (quotes, orders): § 147(3) AO, § 257(4) HGB. */
  commercialLetterYears: 6,
  /** The audit rows of exports and erasures: the regular limitation period, § 195 BGB. */
  privacyRequestYears: 3,
  /**
   * The personal part of an audit event (who, why, the record before and after): long enough to
   * answer for a change within the regular limitation period, § 195 BGB (decision 224).
   */
  auditDetailYears: 3,
  /** Web server and application logs of the deploy kit (journald, deploy/journald/). */
  serverLogDays: 7,
} as const;

/** What a period is counted from, for the rows a statutory period applies to. */
export type RetentionPeriod =
  | { kind: 'licence' }
  | { kind: 'days'; days: number; after: string }
  | { kind: 'years-after-year-end'; years: number; after: string }
  | { kind: 'while-trials-are-offered' }
  | { kind: 'while-an-operator' };

export interface RetentionEntry {
  table: string;
  /** The columns that hold personal data (an address, a name, a pseudonymous provider id). */
  columns: readonly string[];
  why: string;
  period: RetentionPeriod;
  /** What deletes the rows (or their personal columns). */
  deletedBy: string;
  /** Whether `privacy erase` removes it at once, and if not, why it stays. */
  onErasure: 'erased' | 'anonymised' | { kept: string };
}

const R = retentionPeriods;
const licence: RetentionPeriod = { kind: 'licence' };
const withLicence = 'the licence lifecycle job, with its licence';
const retentionJob = 'the retention job (hourly)';
const invoiceLaw = `invoices and booking records, ${R.invoiceYears} years (§ 147 AO, § 257 HGB, § 14b UStG)`;
const letterLaw = `commercial letters, ${R.commercialLetterYears} years (§ 147 AO, § 257 HGB)`;

/** Every table that holds personal data, why, how long and what deletes it (docs/retention.md). */
export const retentionPolicy: readonly RetentionEntry[] = [
  {
    table: 'licences',
    columns: ['email', 'email_normalized', 'key_hint', 'customer_id', 'subscription_id'],
    why: 'the licence contract: issue, validate, convert, notify',
    period: licence,
    deletedBy: 'the licence lifecycle job',
    onErasure: 'erased',
  },
  {
    table: 'access_tokens',
    columns: ['name', 'token_hint', 'last_used_at'],
    why: 'tokens that stand in for the licence key',
    period: licence,
    deletedBy: withLicence,
    onErasure: 'erased',
  },
  {
    table: 'licence_orgs',
    columns: ['org_id', 'first_seen_at', 'last_seen_at'],
    why: 'the org count of a licence (orgs seen in the last 30 days)',
    period: { kind: 'days', days: R.idleOrgDays, after: 'the org last validated' },
    deletedBy: `${retentionJob}; ${withLicence}`,
    onErasure: 'erased',
  },
  {
    table: 'licence_org_releases',
    columns: ['org_id', 'released_at'],
    why: 'the orgs a customer released from a licence, to cap releases per 30 days (decision 228)',
    period: { kind: 'days', days: R.orgReleaseDays, after: 'the org was released' },
    deletedBy: `${retentionJob}; ${withLicence}`,
    onErasure: 'erased',
  },
  {
    table: 'licence_page_sign_ins',
    columns: ['email_normalized'],
    why: 'signing in to the licence page with an e-mailed code or link (decision 229)',
    period: { kind: 'days', days: R.licencePageSignInDays, after: 'the code expired' },
    deletedBy: retentionJob,
    onErasure: 'erased',
  },
  {
    table: 'licence_page_sessions',
    columns: ['email_normalized'],
    why: 'the licence page session of a signed-in address (decision 229)',
    period: { kind: 'days', days: R.licencePageSignInDays, after: 'the session expired' },
    deletedBy: retentionJob,
    onErasure: 'erased',
  },
  {
    table: 'subscription_change_requests',
    columns: ['email_normalized', 'subscription_id', 'message'],
    why: "a customer's request to change a subscription paid by invoice (decision 236)",
    period: { kind: 'days', days: R.changeRequestDays, after: 'it was answered' },
    deletedBy: retentionJob,
    onErasure: 'erased',
  },
  {
    table: 'customer_views',
    columns: ['email_normalized', 'reason'],
    why: "an operator's read-only view of a customer's licence page (decision 236)",
    period: { kind: 'days', days: R.customerViewDays, after: 'the view expired' },
    deletedBy: retentionJob,
    onErasure: 'erased',
  },
  {
    table: 'trial_claims',
    columns: ['email_hash'],
    why: 'one trial per address: a keyed hash of the normalized address, never the address',
    period: { kind: 'while-trials-are-offered' },
    deletedBy: 'nothing: it holds no address',
    onErasure: { kept: 'a keyed hash, not the address: it refuses a second trial (Art. 6(1)(f))' },
  },
  {
    table: 'email_outbox',
    columns: ['to_address', 'to_address_normalized', 'reply_to', 'reply_to_normalized', 'subject'],
    why: 'delivering e-mails and answering "did it go out?"; bodies are cleared once sent (a sealed copy is kept 14 days for a resend, decision 235)',
    period: { kind: 'days', days: R.emailDays, after: 'it was sent or failed' },
    deletedBy: `${retentionJob}; the licence lifecycle job, with the last licence of its address`,
    onErasure: 'erased',
  },
  {
    table: 'contact_messages',
    columns: ['email', 'email_normalized', 'name', 'message', 'role', 'company'],
    why: 'answering the message',
    period: { kind: 'days', days: R.contactMessageDays, after: 'it arrived' },
    deletedBy: retentionJob,
    onErasure: 'erased',
  },
  {
    table: 'payment_events',
    columns: ['subscription_id'],
    why: 'applying each provider event once',
    period: { kind: 'days', days: R.paymentEventDays, after: 'it was applied' },
    deletedBy: retentionJob,
    onErasure: 'erased',
  },
  {
    table: 'provider_calls',
    columns: ['subscription_id'],
    why: 'cancelling or re-reading a subscription the lifecycle decided on, until the provider answers (decision 246)',
    period: { kind: 'days', days: R.paymentEventDays, after: 'it was given up' },
    deletedBy: `the call itself when it succeeds; a call given up: ${retentionJob}`,
    onErasure: {
      kept: 'a cancellation must still reach the provider, or the subscription goes on charging',
    },
  },
  {
    table: 'subscriptions',
    columns: [
      'customer_id',
      'subscription_id',
      'open_invoice_number',
      'billing_email',
      'billing_email_normalized',
    ],
    why: 'the contract behind a Paid licence; after the licence, a booking record of it',
    period: { kind: 'years-after-year-end', years: R.invoiceYears, after: 'it ended' },
    deletedBy: `${retentionJob}, once its licence is deleted`,
    onErasure: { kept: invoiceLaw },
  },
  {
    table: 'invoice_reminders',
    columns: ['subscription_id', 'invoice_id'],
    why: 'sending each reminder of an open invoice once',
    period: { kind: 'years-after-year-end', years: R.invoiceYears, after: 'it was sent' },
    deletedBy: retentionJob,
    onErasure: { kept: invoiceLaw },
  },
  {
    table: 'quotes',
    columns: [
      'email',
      'email_normalized',
      'company_name',
      'billing_address',
      'vat_id',
      'purchase_order',
      'document',
    ],
    why: 'the quote sent from the pricing page; once accepted, a commercial letter sent',
    period: { kind: 'years-after-year-end', years: R.commercialLetterYears, after: 'it was made' },
    deletedBy: retentionJob,
    // A quote that led to no order is no commercial letter of a deal (§ 257(2) HGB).
    onErasure: { kept: `accepted quotes: ${letterLaw}; the others are erased` },
  },
  {
    table: 'invoice_orders',
    columns: [
      'billing_email',
      'email_normalized',
      'email_domain',
      'details',
      'licence_holder_email',
      'licence_holder_email_normalized',
    ],
    why: 'an order paid by invoice; once confirmed, a commercial letter received',
    period: { kind: 'years-after-year-end', years: R.commercialLetterYears, after: 'it was made' },
    deletedBy: `${retentionJob}; never confirmed: ${R.unconfirmedOrderDays} days after it was made`,
    onErasure: { kept: `confirmed orders: ${letterLaw}; the others are erased` },
  },
  {
    table: 'local_invoices',
    columns: [
      'billing_email',
      'billing_email_normalized',
      'company_name',
      'billing_address',
      'vat_id',
      'po_reference',
    ],
    why: 'invoices of the local TEST-MODE provider (Stripe keeps its own)',
    period: { kind: 'years-after-year-end', years: R.invoiceYears, after: 'it was issued' },
    deletedBy: retentionJob,
    onErasure: { kept: invoiceLaw },
  },
  {
    table: 'payment_documents',
    columns: ['buyer_email', 'buyer_email_normalized', 'document'],
    why: 'the invoice or receipt of every payment the product documents itself, and the credit notes that correct them (decisions 180, 220)',
    period: { kind: 'years-after-year-end', years: R.invoiceYears, after: 'it was issued' },
    deletedBy: retentionJob,
    onErasure: { kept: invoiceLaw },
  },
  {
    table: 'local_subscriptions',
    columns: ['customer_id', 'licence_holder_email', 'licence_holder_email_normalized'],
    why: 'subscriptions of the local TEST-MODE provider',
    period: { kind: 'years-after-year-end', years: R.invoiceYears, after: 'it ended' },
    deletedBy: `${retentionJob}, after its invoices`,
    onErasure: { kept: invoiceLaw },
  },
  {
    table: 'local_customers',
    columns: ['email', 'email_normalized', 'card_last4'],
    why: 'the local TEST-MODE provider’s customers',
    period: { kind: 'years-after-year-end', years: R.invoiceYears, after: 'its last invoice' },
    deletedBy: 'privacy erase (anonymised)',
    onErasure: 'anonymised',
  },
  {
    table: 'local_checkout_sessions',
    columns: [
      'customer_email',
      'customer_email_normalized',
      'licence_holder_email',
      'licence_holder_email_normalized',
    ],
    why: 'the local TEST-MODE provider’s checkout pages',
    period: { kind: 'days', days: R.localSessionDays, after: 'it expired' },
    deletedBy: retentionJob,
    onErasure: 'erased',
  },
  {
    table: 'local_portal_sessions',
    columns: ['customer_id'],
    why: 'the local TEST-MODE provider’s billing portal pages',
    period: { kind: 'days', days: R.localSessionDays, after: 'it expired' },
    deletedBy: retentionJob,
    onErasure: 'erased',
  },
  {
    table: 'privacy_requests',
    columns: ['subject_hash'],
    why: 'proof that an export or erasure was done (Art. 5(2)); a keyed hash, never the address',
    period: {
      kind: 'years-after-year-end',
      years: R.privacyRequestYears,
      after: 'it was done',
    },
    deletedBy: retentionJob,
    onErasure: { kept: 'the record of this erasure (Art. 5(2), 17)' },
  },
  {
    table: 'audit_event_details',
    columns: ['actor', 'reason', 'subject_email', 'subject_email_normalized', 'before', 'after'],
    why: 'who changed a licence, subscription, order, quote or document, why, and what it was before and after (Art. 5(2)); the event itself keeps no personal data and stays',
    period: {
      kind: 'years-after-year-end',
      years: R.auditDetailYears,
      after: 'the change was made',
    },
    deletedBy: retentionJob,
    onErasure: 'erased',
  },
  {
    table: 'operators',
    columns: ['email', 'email_normalized'],
    why: 'who may sign in to the operator console, and who an `operator:<id>` actor of the audit log is (decision 226)',
    period: { kind: 'while-an-operator' },
    deletedBy:
      'nothing automatic: an operator is disabled, never deleted, so their actions stay attributable',
    onErasure: {
      kept: 'staff accounts are not customer data; an operator leaves by being disabled',
    },
  },
];

/** A period as the document and the page say it. */
export function describePeriod(period: RetentionPeriod): string {
  switch (period.kind) {
    case 'licence':
      return `while the licence exists, then ${R.licenceReactivationMonths} months after it ends, then deleted within ${R.licenceDeletionMonths} further month`;
    case 'days':
      return `${period.days} days after ${period.after}`;
    case 'years-after-year-end':
      return `${period.years} years after the end of the year ${period.after}`;
    case 'while-trials-are-offered':
      return 'while we offer trials';
    case 'while-an-operator':
      return 'while the person is an operator, and after they are disabled as the name behind their actions';
  }
}

/** The table of docs/retention.md (Markdown), from the policy above. */
export function retentionTableMarkdown(policy = retentionPolicy): string {
  const cell = (text: string) => text.replaceAll('|', '\\|');
  const erasure = (entry: RetentionEntry) =>
    typeof entry.onErasure === 'string' ? entry.onErasure : `kept: ${entry.onErasure.kept}`;
  return [
    '| Table | Personal data | Why we keep it | How long | What deletes it | On erasure |',
    '|---|---|---|---|---|---|',
    ...policy.map(
      (entry) =>
        `| \`${entry.table}\` | ${entry.columns.map((column) => `\`${column}\``).join(', ')} | ${cell(entry.why)} | ${cell(describePeriod(entry.period))} | ${cell(entry.deletedBy)} | ${cell(erasure(entry))} |`,
    ),
  ].join('\n');
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** `now` less a number of days. */
export function daysBefore(now: Date, days: number): Date {
  return new Date(now.getTime() - days * DAY_MS);
}

/**
 * The cut-off of a statutory period of `years` counted from the end of the calendar year
 * (§ 147(4) AO): rows made before it are past their period. It lies one day before New Year
 * in UTC, so a row of Berlin's first hour of a year is not taken for one of the year before.
 */
export function yearEndCutoff(now: Date, years: number): Date {
  return new Date(Date.UTC(now.getUTCFullYear() - years - 1, 11, 31));
}
