import type { RateLimitRule } from './rate-limiter.ts';

const HOUR = 3600;
const DAY = 24 * HOUR;

/**
 * Every rate limit of the service, in one table (decision 053; validation's, which follow the
 * environment, below). Exact limits counted in the database by default; the high-volume reads
 * marked `counted: 'memory'` are approximate, per instance (decision 238). Per IP they are generous, because whole
 * companies share one address; per e-mail address they bound how many e-mails a stranger can
 * make us send to someone.
 */
export const rateLimitRules = {
  contactPerIp: { name: 'contact:ip', limit: 20, windowSeconds: HOUR },
  contactPerEmail: { name: 'contact:email', limit: 5, windowSeconds: HOUR },
  trialPerIp: { name: 'trial:ip', limit: 20, windowSeconds: HOUR },
  trialPerEmail: { name: 'trial:email', limit: 5, windowSeconds: HOUR },
  managePerIp: { name: 'manage:ip', limit: 20, windowSeconds: HOUR },
  managePerEmail: { name: 'manage:email', limit: 3, windowSeconds: HOUR },
  // Quotes (decision 142): each sends an e-mail with the PDF's link, like the other public forms.
  quotePerIp: { name: 'quote:ip', limit: 20, windowSeconds: HOUR },
  quotePerEmail: { name: 'quote:email', limit: 5, windowSeconds: HOUR },
  // The landing page's button: each use asks the payment provider for a portal session.
  openPortalPerIp: { name: 'open-portal:ip', limit: 30, windowSeconds: HOUR },
  // Generous per IP (a whole company may share one); a session costs the provider little.
  checkoutPerIp: { name: 'checkout:ip', limit: 30, windowSeconds: HOUR },
  // Each invoice order creates a customer and sends an invoice at once (decision 144).
  invoiceCheckoutPerIp: { name: 'invoice-checkout:ip', limit: 10, windowSeconds: HOUR },
  // Per billing address, over a day: each order mails an invoice to that address, so a stranger
  // using someone else's address can make us send it a handful, not a flood (decision 146).
  invoiceCheckoutPerEmail: { name: 'invoice-checkout:email', limit: 5, windowSeconds: DAY },
  // The invoice-order landing page's buttons (decision 153): a confirmation calls the provider.
  invoiceOrderLinkPerIp: { name: 'invoice-order-link:ip', limit: 30, windowSeconds: HOUR },
  keepTrialLinkPerIp: { name: 'keep-trial-link:ip', limit: 30, windowSeconds: HOUR },
  // The success page's provider lookups (decision 125): per client, then for all clients, so no
  // crowd spends the Stripe rate limit that checkout and webhooks share.
  // Polled by every success page: counted in memory per instance (decision 238).
  checkoutStatusPerIp: {
    name: 'checkout-status:ip',
    limit: 30,
    windowSeconds: 600,
    counted: 'memory',
  },
  checkoutStatusOverall: {
    name: 'checkout-status:all',
    limit: 600,
    windowSeconds: 60,
    counted: 'memory',
  },
  // Lost keys: the resend e-mail and the key replacement behind its link (decision 075).
  resendPerIp: { name: 'resend:ip', limit: 20, windowSeconds: HOUR },
  resendPerEmail: { name: 'resend:email', limit: 3, windowSeconds: HOUR },
  replaceKeyPerIp: { name: 'replace-key:ip', limit: 20, windowSeconds: HOUR },
  // Access tokens for CI, created and revoked with the licence key (decision 074).
  accessTokensPerIp: { name: 'access-tokens:ip', limit: 60, windowSeconds: HOUR },
  accessTokensPerLicence: { name: 'access-tokens:licence', limit: 30, windowSeconds: HOUR },
  // The licence page's sign-in (decision 229): codes e-mailed per address bound the mail a stranger
  // can cause; tries per client and per address bound guessing on top of 5 tries per code.
  licencePageCodePerIp: { name: 'licence-page-code:ip', limit: 20, windowSeconds: HOUR },
  licencePageCodePerEmail: { name: 'licence-page-code:email', limit: 5, windowSeconds: HOUR },
  licencePageSignInPerIp: { name: 'licence-page-sign-in:ip', limit: 30, windowSeconds: HOUR },
  licencePageSignInPerEmail: { name: 'licence-page-sign-in:email', limit: 20, windowSeconds: HOUR },
  licencePageActionPerIp: { name: 'licence-page:ip', limit: 60, windowSeconds: HOUR },
  // The operator console (decision 226): each passkey sign-in attempt per client, so guessing
  // (or a stolen authenticator without its PIN) is slow; a success spends one too.
  consoleSignInPerIp: { name: 'console-sign-in:ip', limit: 10, windowSeconds: 900 },
  consoleEnrolPerIp: { name: 'console-enrol:ip', limit: 20, windowSeconds: HOUR },
} satisfies Record<string, RateLimitRule>;

/**
 * Licence validation (decision 077): per credential as configured
 * (`LICENSE_VALIDATION_RATE_LIMIT` a minute), four times that per address (CI fleets share one).
 */
export function licenceValidationRules(perMinute: number) {
  return {
    perCredential: {
      name: 'validate:credential',
      limit: perMinute,
      windowSeconds: 60,
      counted: 'memory',
    },
    perIp: { name: 'validate:ip', limit: perMinute * 4, windowSeconds: 60, counted: 'memory' },
  } satisfies Record<string, RateLimitRule>;
}
