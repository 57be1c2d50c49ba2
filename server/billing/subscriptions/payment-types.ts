import type { BillingPeriod, Currency, Edition } from '#shared/pricing/index.ts';
import type { VatIdConfirmation } from '#shared/pricing/vat-id-confirmation.ts';
import type { BankAccount } from '#server/billing/bank-accounts.ts';
import type { DocumentablePayment } from '#server/billing/documents/payment-document.ts';

/**
 * The provider-neutral words of the payment boundary: Stripe and the local provider both answer
 * in these types, so nothing outside server/billing/payments/ knows which one runs.
 */
export type PaymentProviderName = 'stripe' | 'local';

/** Subscription states as Stripe names them; the local provider uses the same set. */
export const subscriptionStatuses = [
  'incomplete',
  'incomplete_expired',
  'trialing',
  'active',
  'past_due',
  'unpaid',
  'canceled',
  'paused',
] as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];

export function isSubscriptionStatus(value: unknown): value is SubscriptionStatus {
  return subscriptionStatuses.some((status) => status === value);
}

/** What a subscription is right now, re-read from the provider (never taken from an event body). */
export interface SubscriptionSnapshot {
  provider: PaymentProviderName;
  subscriptionId: string;
  customerId: string;
  customerEmail: string | null;
  /** The paying company as the provider's customer names it (Stripe); absent: unknown. */
  customerName?: string | null;
  status: SubscriptionStatus;
  edition: Edition;
  /** The licence size (orgs): Pro 4..24, Starter and Enterprise their fixed size. */
  quantity: number;
  billingPeriod: BillingPeriod;
  currency: Currency;
  currentPeriodEnd: Date;
  cancelAtPeriodEnd: boolean;
  endedAt: Date | null;
  /** Ended because the provider gave up collecting a payment (not because the buyer cancelled). */
  endedForNonPayment: boolean;
  /** The trial licence named at checkout for conversion (metadata), if any. */
  licenceIdToConvert: string | null;
  /** The quote its card checkout came from (metadata), accepted once paid (decision 214). */
  quoteNumber: string | null;
  /**
   * Who the licence is for when the order named someone else than the paying address (metadata;
   * decision 223); absent or null: the customer's address. `licenceHolderOf` decides.
   */
  licenceHolderEmail?: string | null;
  /** Charged to a card automatically, or paid by invoice (decision 144). */
  collection: 'card' | 'invoice';
  /** The oldest invoice sent for payment and still open; null when none is (or for cards). */
  openInvoice: OpenInvoice | null;
  /**
   * Money has been received for this subscription: a card subscription past its first payment,
   * or an invoice of it paid (not merely sent). Only then may a trial of the buyer's address be
   * converted without its key being named (issue 25; decision 161).
   */
  paymentReceived: boolean;
  /**
   * The latest payments whose invoice or receipt the product makes itself (the local provider's,
   * decision 180); absent when the provider makes its own (Stripe).
   */
  documentablePayments?: DocumentablePayment[];
  /** The provider's own document of the latest payment (Stripe's hosted invoice), if any. */
  providerDocumentUrl?: string | null;
}

/** An invoice sent to the buyer for payment. */
export interface OpenInvoice {
  invoiceId: string;
  number: string;
  dueAt: Date;
  /** What is still owed on it, gross, in minor units of the subscription's currency. */
  amountDue: number;
  /** The provider's page of the invoice, where it is paid and its PDF downloaded. */
  hostedUrl: string;
}

/**
 * An invoice or card charge as the provider holds it, for credits and refunds (decision 220).
 * Amounts are gross, in minor units of `currency`.
 */
export interface ProviderInvoice {
  invoiceId: string;
  /** The provider's number (Stripe's, the local `LOCAL-…`); the id where it has none. */
  number: string;
  subscriptionId: string | null;
  /** `open`: owed; `paid`; `closed`: void, uncollectible or a draft: neither owed nor paid. */
  status: 'open' | 'paid' | 'closed';
  currency: Currency;
  /** What the invoice asks for, with VAT. */
  totalMinor: number;
  /** Still owed of an open invoice (its total less payments and credits). */
  remainingMinor: number;
  /** Paid and not refunded yet: what a refund may still pay back. */
  refundableMinor: number;
  /** The subscription's latest invoice: a full refund of it ends the subscription. */
  latest: boolean;
}

/** A credit of an invoice: off what is owed (`refund: false`), or paid back (`refund: true`). */
export interface CreditInvoiceInput {
  invoiceId: string;
  /** Gross, positive, at most what is owed (open) or refundable (paid). */
  amountMinor: number;
  refund: boolean;
  /** The operator's words, kept with the credit. */
  reason: string;
  /** One credit per key, however often it is asked for. */
  idempotencyKey: string;
}

/** The provider's record of a credit: Stripe's credit note (its own document), or the local one. */
export interface ProviderCredit {
  creditId: string;
  /** The provider's number of its credit note; null where the product numbers it (local). */
  number: string | null;
  /** The provider's PDF of its credit note; null where the product draws it (local). */
  pdfUrl: string | null;
  /** Asked before under the same key: nothing new was made. */
  replayed: boolean;
}

/** The buyer of a subscription paid by invoice: who the invoice is made out and sent to. */
export interface InvoiceBuyer {
  companyName: string;
  email: string;
  address: {
    line1: string | null;
    postalCode: string | null;
    city: string | null;
    /** State or province (US, Canada, Australia; decision 219). */
    state?: string | null | undefined;
    country: string | null;
  };
  /** The buyer's VAT or tax ID as typed (normalized). */
  vatId: string | null;
  /**
   * VIES's confirmation of an EU `vatId` (decision 210): only a confirmed ID is the reverse
   * charge, and only it becomes Stripe's `eu_vat` tax ID.
   */
  vatIdConfirmation: VatIdConfirmation | null;
}

/**
 * The company a card checkout is for (decision 219): as an invoice buyer, without an e-mail
 * address (the provider's page asks it). The provider charges the VAT `decideVat` gives for it;
 * a free plan may name no address.
 */
export type CheckoutBuyer = Omit<InvoiceBuyer, 'email'>;

export interface CreateInvoiceSubscriptionInput extends CheckoutOrder {
  /** Our id of the request: metadata and idempotency key. */
  requestId: string;
  buyer: InvoiceBuyer;
  /** The buyer's purchase-order reference, printed on the invoice. */
  poReference: string | null;
  /** The accepted quote this order comes from, if any. */
  quoteReference: string | null;
  /** Days from issue to due date (net 30). */
  daysUntilDue: number;
  /** The seller's account the invoice is paid into, printed on it (decision 218). */
  bankAccount: BankAccount;
  /** Who receives the licence key, when not the billing address (decision 223). */
  licenceHolderEmail?: string | null;
}

export interface InvoiceSubscriptionRef {
  subscriptionId: string;
  /** `amountDue` is gross; `netAmount` and `vatAmount` beside it (minor units). */
  invoice: OpenInvoice & { netAmount: number; vatAmount: number };
  /**
   * Where the provider e-mailed the invoice; null when it sent none (the local provider, Stripe
   * in test mode), so no page claims an e-mail that never left.
   */
  emailedTo: string | null;
}

/** The order a checkout session sells: amounts are not part of it, the provider prices it. */
export interface CheckoutOrder {
  edition: Edition;
  quantity: number;
  billingPeriod: BillingPeriod;
  currency: Currency;
}

export interface CreateCheckoutSessionInput extends CheckoutOrder {
  /** Our id of the checkout request: client reference and idempotency key. */
  checkoutRequestId: string;
  /** Known when a trial is converted: the buyer's customer is then found or created up front. */
  customerEmail: string | null;
  licenceIdToConvert: string | null;
  /** The quote this checkout accepts once it is paid (decision 214); absent: none. */
  quoteNumber?: string | null;
  /** Who buys, VIES's confirmation included; null: nobody named (older clients, taxed as German). */
  buyer?: CheckoutBuyer | null;
  /** Who receives the licence key, when not the address paying (decision 223). */
  licenceHolderEmail?: string | null;
  /** May contain `{CHECKOUT_SESSION_ID}`, replaced by the provider. */
  successUrl: string;
  cancelUrl: string;
}

export interface CheckoutSessionRef {
  sessionId: string;
  url: string;
}

export type CheckoutSessionStatus = 'open' | 'complete' | 'expired';

export interface CheckoutSessionView {
  sessionId: string;
  status: CheckoutSessionStatus;
  subscriptionId: string | null;
  customerEmail: string | null;
}

/** The event types whose arrival makes us re-read a subscription. */
export const handledEventTypes = [
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
] as const;
export type HandledEventType = (typeof handledEventTypes)[number];

/** A verified provider event, reduced to what the sync needs: which subscription to re-read. */
export interface PaymentEvent {
  id: string;
  type: string;
  /** Null for events that concern no subscription (they are recorded and ignored). */
  subscriptionId: string | null;
}
