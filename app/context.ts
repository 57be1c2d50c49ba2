import { createContext as createRouterContext } from 'react-router';
import type { PortalLinkStatus } from '../shared/contracts/billing-portal.ts';
import type { CheckoutStatusReading } from '../shared/contracts/checkout.ts';
import type { InvoiceOrderLinkStatus } from '../shared/contracts/invoice-checkout.ts';
import type { KeepTrialLinkStatus } from '../shared/contracts/keep-trial-key.ts';
import type { LicencePageReading } from '../shared/contracts/licence-page.ts';
import type { QuoteSummary } from '../shared/contracts/quotes.ts';
import type { ConsoleSessionView } from '../shared/contracts/console.ts';
import type { Currency } from '../shared/pricing/index.ts';
import type { SigningKeyDescription } from '../shared/downloads/verification.ts';
import type { ReleaseCatalogReader } from '../shared/downloads/versions.ts';

/**
 * What the server hands to every loader through React Router's context. Domain issues add the
 * read-only services their pages need to `SiteServices` (and the server supplies them).
 */
export interface SiteServices {
  /** The release catalog: /download, the home page's structured data. */
  readonly releases: ReleaseCatalogReader;
  /** The keys that signed releases' SHA256SUMS, by id: /download's "Verify your download". */
  readonly releaseSigningKeys?: {
    describe(keyId: string): Promise<SigningKeyDescription | undefined>;
  };
  /** The checkout-success page: the licence status of a checkout session (server/billing/checkout). */
  readonly checkout?: { readStatus(sessionId: string | null): Promise<CheckoutStatusReading> };
  /** The billing-portal landing page: what its link is for, read without using it. */
  readonly billingPortal?: { readLink(token: string | null): Promise<PortalLinkStatus> };
  /** The invoice-order landing page: the order its link confirms, read without using it. */
  readonly invoiceOrders?: { readLink(token: string | null): Promise<InvoiceOrderLinkStatus> };
  /** The keep-your-trial-key page: what its link would do, read without using it. */
  readonly keepTrialKey?: { readLink(token: string | null): Promise<KeepTrialLinkStatus> };
  /** The licence page (decision 229): the signed-in address's own licences, by its session cookie. */
  readonly licencePage?: { read(cookieHeader: string | null): Promise<LicencePageReading> };
  /** The quote accept page: the quote its link names (server/billing/quotes). */
  readonly quotes?: { readSummary(token: string | null): Promise<QuoteSummary> };
}

/** Where a render reports its errors: the server's pino logger (a pino `Logger` fits). */
export interface RenderLogger {
  error(details: { err: unknown; path: string }, message: string): void;
}

export interface SiteRequestContext {
  publicBaseUrl: string;
  /** Absolute base URL of the account service as the browser calls it; '' = same origin. */
  accountApiUrl: string;
  gaMeasurementId: string | undefined;
  /** Test payments on purpose (`PAYMENT_PROVIDER=local`): every page shows a notice. */
  testPayments: boolean;
  /** The currencies pay by invoice is offered in (a seller's bank account in each, decision 218). */
  invoiceCurrencies: Currency[];
  /** Render time, so the footer year and dates are computed when the page is (and testable). */
  now: Date;
  services: SiteServices;
  /**
   * A random mark (a `nonce` attribute) for every inline script this render emits: the server
   * hashes only marked scripts for the CSP, then strips the marks (decision 120). Unset: no marks.
   */
  scriptMark?: string;
  logger: RenderLogger;
  /**
   * Set only by the operator console's listener (decision 226): who is signed in, null for
   * nobody. The site's listener never renders a console page.
   */
  console?: { session: ConsoleSessionView | null };
}

export const siteContext = createRouterContext<SiteRequestContext>();
