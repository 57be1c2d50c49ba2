import { createContext as createRouterContext } from 'react-router';
import type { CheckoutStatus } from '../shared/contracts/checkout.ts';
import type { ReleaseCatalogReader } from '../shared/downloads/versions.ts';

/**
 * What the server hands to every loader through React Router's context. Domain issues add the
 * read-only services their pages need to `SiteServices` (and the server supplies them).
 */
export interface SiteServices {
  /** The release catalog: /download, the home page's structured data. */
  readonly releases: ReleaseCatalogReader;
  /** The checkout-success page: the licence status of a checkout session (server/checkout). */
  readonly checkout?: { readStatus(sessionId: string | null): Promise<CheckoutStatus> };
}

export interface SiteRequestContext {
  publicBaseUrl: string;
  /** Absolute base URL of the account service as the browser calls it; '' = same origin. */
  accountApiUrl: string;
  gaMeasurementId: string | undefined;
  /** Render time, so the footer year and dates are computed when the page is (and testable). */
  now: Date;
  services: SiteServices;
  /**
   * A random mark (a `nonce` attribute) for every inline script this render emits: the server
   * hashes only marked scripts for the CSP, then strips the marks (decision 120). Unset: no marks.
   */
  scriptMark?: string;
}

export const siteContext = createRouterContext<SiteRequestContext>();
