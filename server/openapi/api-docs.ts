import { CSRF_HEADER, CSRF_TOKEN_PATH, csrfCookieName } from '#shared/contracts/csrf.ts';
import { accessTokenRoutes } from '../licensing/access-tokens/access-token-routes.ts';
import { billingPortalRoutes } from '../billing/billing-portal/billing-portal-routes.ts';
import { checkoutRoutes } from '../billing/checkout/checkout-routes.ts';
import { invoiceCheckoutRoutes } from '../billing/invoices/invoice-checkout-routes.ts';
import { contactRoutes } from '../features/contact/contact-routes.ts';
import { csrfTokenRoutes } from '../platform/http/csrf.ts';
import { isCsrfExempt } from '../platform/http/csrf-exempt.ts';
import { licenceCertificateRoutes } from '../licensing/licence-certificates/licence-certificate-routes.ts';
import { licenceRecoveryRoutes } from '../licensing/licence-recovery/licence-recovery-routes.ts';
import { licenceValidationRoutes } from '../licensing/licence-validation/licence-validation-routes.ts';
import { paymentWebhookRoutes } from '../billing/payments/webhook-routes.ts';
import { quoteRoutes } from '../billing/quotes/quote-routes.ts';
import { releaseFileRoutes } from '../licensing/releases/release-file-routes.ts';
import { releaseRoutes } from '../licensing/releases/release-routes.ts';
import { trialRoutes } from '../features/trials/trial-routes.ts';
import type { ApiOperationDoc } from '../platform/api-doc/api-doc.ts';
import { apiReferenceRoutes } from './api-reference-routes.ts';
import { openApiRoutes } from './openapi-routes.ts';
import { buildOpenApiDocument } from './build-openapi-document.ts';

/**
 * Every documented endpoint of the account service and the site's API: the definitions of each
 * routes module (decision 168). `tests/api/licensing-openapi.test.ts` fails when a registered
 * route is missing here or a listed one does not answer.
 */
export const apiDocs: readonly ApiOperationDoc[] = [
  ...contactRoutes.docs,
  ...csrfTokenRoutes.docs,
  ...trialRoutes.docs,
  ...billingPortalRoutes.docs,
  ...checkoutRoutes.docs,
  ...quoteRoutes.docs,
  ...invoiceCheckoutRoutes.docs,
  ...paymentWebhookRoutes.docs,
  ...releaseRoutes.docs,
  ...releaseFileRoutes.docs,
  ...licenceValidationRoutes.docs,
  ...licenceCertificateRoutes.docs,
  ...accessTokenRoutes.docs,
  ...licenceRecoveryRoutes.docs,
  ...openApiRoutes.docs,
  ...apiReferenceRoutes.docs,
];

/** The credentials the API takes; `licenseKey` travels in the JSON body, which OpenAPI cannot name. */
function securitySchemes(csrfCookie: string): Record<string, Record<string, unknown>> {
  return {
    csrfCookie: {
      type: 'apiKey',
      in: 'cookie',
      name: csrfCookie,
      description: `The CSRF token cookie, set by \`GET ${CSRF_TOKEN_PATH}\`; browsers send it themselves.`,
    },
    csrfHeader: {
      type: 'apiKey',
      in: 'header',
      name: CSRF_HEADER,
      description: `The value of the ${csrfCookie} cookie, echoed (double-submit, decision 004).`,
    },
    accessToken: {
      type: 'http',
      scheme: 'bearer',
      description:
        'An access token created for a licence (for CI), sent instead of the licence key in the body.',
    },
    stripeSignature: {
      type: 'apiKey',
      in: 'header',
      name: 'Stripe-Signature',
      description: 'Stripe’s signature of the raw body with the webhook secret.',
    },
  };
}

export interface ApiDocumentUrls {
  /** Base URL of the account service as clients call it. */
  accountBaseUrl: string;
  /** Origin of the website (for endpoints the site serves itself). */
  siteBaseUrl: string;
}

/** The OpenAPI 3.1 document of every endpoint in `apiDocs`. */
export function buildApiDocument(urls: ApiDocumentUrls): Record<string, unknown> {
  const csrfCookie = csrfCookieName(urls.siteBaseUrl.startsWith('https:'));
  return buildOpenApiDocument(apiDocs, {
    info: {
      title: 'Orgsmith account service',
      version: '1.0.0',
      description:
        'Trial licences, checkout, subscriptions, licence validation for the CLI and the release catalog. Error bodies carry `{"Error": "<Code>"}`.',
    },
    tagDescriptions: {
      'Access tokens':
        'Tokens for CI that the CLI sends instead of the licence key; created, listed and revoked with the key.',
      Contact: 'The site’s contact form.',
      'Licence certificates': 'Public keys that verify the certificates of valid licences.',
      'Licence validation': 'The CLI’s licence check.',
      'Lost licence key': 'Replacing a lost licence key through a link e-mailed to its address.',
      Reference: 'This document.',
      Releases: 'The release catalog, downloads and the release feed.',
      Site: 'What the site’s own pages call.',
      Subscriptions: 'Checkout, the billing portal and what they start.',
      Trials: 'Two-month trial licences.',
      Webhooks: 'Events from the payment provider.',
    },
    ...urls,
    securitySchemes: securitySchemes(csrfCookie),
    isCsrfExempt,
    csrfSecurity: { csrfCookie: [], csrfHeader: [] },
  });
}
