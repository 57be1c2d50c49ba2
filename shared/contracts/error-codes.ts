/**
 * The machine codes of the account service's error bodies (`{"Error":"<Code>","message":"…"}`).
 * Site and service both read them from here; the texts shown to visitors are in `messages.ts`.
 */
export const errorCodes = {
  /** Malformed JSON, wrong types, missing or unknown fields or query parameters. */
  invalidRequest: 'InvalidRequest',
  unsupportedMediaType: 'UnsupportedMediaType',
  payloadTooLarge: 'PayloadTooLarge',
  tooManyRequests: 'TooManyRequests',
  csrfTokenInvalid: 'CsrfTokenInvalid',
  /** An operator console endpoint called without a console session (decision 225). */
  consoleSessionRequired: 'ConsoleSessionRequired',
  /** A console operator whose role lacks the endpoint's permission (decision 226). */
  permissionDenied: 'PermissionDenied',
  /** A console action that asks for the passkey again: the last check is too old. */
  recentVerificationRequired: 'RecentVerificationRequired',
  /** No endpoint at this path of the account service or the site's API. */
  notFound: 'NotFound',
  internalError: 'InternalError',
  /** A trial was requested for another product than the CLI. */
  productIdInvalid: 'ProductIdInvalid',
  referralCodeInvalid: 'ReferralCodeInvalid',
  trialLicenseAlreadyUsed: 'TrialLicenseAlreadyUsed',
  licenseKeyUnknown: 'LicenseKeyUnknown',
  subscriptionAlreadyExists: 'SubscriptionAlreadyExists',
  /** A billing-portal link that is forged, expired, used, or whose licence has gone or moved. */
  billingPortalLinkInvalid: 'BillingPortalLinkInvalid',
  /** The card payment provider could not open a checkout (unreachable or not configured). */
  paymentProviderUnavailable: 'PaymentProviderUnavailable',
  /** An invoice order for this billing address is still open (unconfirmed or unpaid). */
  invoiceOrderOpen: 'InvoiceOrderOpen',
  /** The billing address's e-mail domain has reached its open invoice orders. */
  invoiceOrderDomainLimit: 'InvoiceOrderDomainLimit',
  /** An invoice order's confirmation link that is unknown, expired, used or cancelled. */
  invoiceOrderLinkInvalid: 'InvoiceOrderLinkInvalid',
  /** A keep-your-trial-key link that is forged, expired, used, or whose trial has changed. */
  keepTrialLinkInvalid: 'KeepTrialLinkInvalid',
  /** The quote was accepted by an earlier order: a quote is ordered once. */
  quoteAlreadyAccepted: 'QuoteAlreadyAccepted',
  /** Pay by invoice is not offered in the order's currency: no bank account to pay into. */
  invoiceCurrencyNotOffered: 'InvoiceCurrencyNotOffered',
  /** The org named to release holds no slot of the licence (not seen in the last 30 days). */
  orgNotInUse: 'OrgNotInUse',
  /** The customer released as many orgs of the licence as a window allows (decision 228). */
  orgReleaseLimit: 'OrgReleaseLimit',
  /** The licence page's e-mailed code is wrong, expired, used or tried too often (decision 229). */
  signInCodeInvalid: 'SignInCodeInvalid',
  /** The licence page's e-mailed link is expired, used or not ours. */
  signInLinkInvalid: 'SignInLinkInvalid',
  /** The licence page's session cookie is missing, ended or expired. */
  licenceSessionRequired: 'LicenceSessionRequired',
  /** No licence of the signed-in address has this id. */
  licenceNotFound: 'LicenceNotFound',
  /** No active access token of the licence has this id (decision 236). */
  accessTokenNotFound: 'AccessTokenNotFound',
  /** A licence holds the most active access tokens it may (20). */
  accessTokenLimitReached: 'AccessTokenLimitReached',
  /** The licence's key changed while it was being replaced: reload and try again. */
  keyChanged: 'KeyChanged',
  /** "Request a change" is for subscriptions paid by invoice (decision 236). */
  notPaidByInvoice: 'NotPaidByInvoice',
  /** The subscription already has a change request waiting for an answer. */
  changeRequestOpen: 'ChangeRequestOpen',
  /** An operator's view of a customer's page changes nothing (decision 236). */
  viewAsReadOnly: 'ViewAsReadOnly',
  /** The quote is past its last valid day. */
  quoteExpired: 'QuoteExpired',
} as const;

export type ErrorCode = (typeof errorCodes)[keyof typeof errorCodes];

export interface ErrorBody {
  Error: ErrorCode;
  message: string;
}
