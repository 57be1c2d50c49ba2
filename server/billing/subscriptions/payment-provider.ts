import type {
  CreditInvoiceInput,
  ProviderCredit,
  ProviderInvoice,
  CheckoutSessionRef,
  CheckoutSessionView,
  CreateCheckoutSessionInput,
  CreateInvoiceSubscriptionInput,
  InvoiceSubscriptionRef,
  PaymentEvent,
  PaymentProviderName,
  SubscriptionSnapshot,
} from './payment-types.ts';

/**
 * The boundary to the card payment provider (Stripe, or the built-in local provider when no
 * Stripe key is configured). Only implementations of this interface talk to a vendor; failures
 * are PaymentErrors (payment-errors.ts) with a provider-neutral code.
 */
export interface PaymentProvider {
  readonly name: PaymentProviderName;

  /** A hosted checkout for one subscription; the buyer is sent to `url`. */
  createCheckoutSession(input: CreateCheckoutSessionInput): Promise<CheckoutSessionRef>;

  /**
   * A subscription paid by invoice (decision 144): the customer with its company details and VAT
   * ID, and a subscription whose first invoice is finalized and sent at once, due in
   * `daysUntilDue` days. It is active from the start; the licence follows from the sync.
   */
  createInvoiceSubscription(input: CreateInvoiceSubscriptionInput): Promise<InvoiceSubscriptionRef>;

  retrieveCheckoutSession(sessionId: string): Promise<CheckoutSessionView>;

  /** The subscription as it is now: the one source the sync trusts (never an event body). */
  retrieveSubscription(subscriptionId: string): Promise<SubscriptionSnapshot>;

  /** Ends a subscription at once (a Free licence's cancellation, a licence past reactivation). */
  cancelSubscription(subscriptionId: string): Promise<void>;

  /** An invoice or charge by the provider's id or number (decision 220); PaymentError NotFound. */
  retrieveInvoice(idOrNumber: string): Promise<ProviderInvoice>;

  /** A subscription's invoices still owed (sent for payment, not paid, not credited). */
  listOpenInvoices(subscriptionId: string): Promise<ProviderInvoice[]>;

  /**
   * Credits an invoice (decision 220): off an open invoice's amount owed, or refunded of a paid
   * one; more than is left is refused (PaymentError CreditRefused). Once per idempotency key.
   */
  creditInvoice(input: CreditInvoiceInput): Promise<ProviderCredit>;

  /** A short-lived session of the provider's billing portal for one customer. */
  createBillingPortalSession(input: {
    customerId: string;
    /** Where the portal's "back" link leads. */
    returnUrl: string;
  }): Promise<{ url: string }>;

  /** Verifies a webhook delivery on its raw body; throws PaymentError('SignatureInvalid'). */
  parseWebhook(rawBody: string, signature: string | undefined): PaymentEvent;
}
