import { z } from 'zod';
import { CSRF_HEADER, CSRF_TOKEN_PATH, csrfCookieName } from '#shared/contracts/csrf.ts';
import { accessTokenApiDocs } from '../licensing/access-tokens/access-token-api-docs.ts';
import { billingPortalApiDocs } from '../billing/billing-portal/billing-portal-api-docs.ts';
import { checkoutApiDocs } from '../billing/checkout/checkout-api-docs.ts';
import { invoiceCheckoutApiDocs } from '../billing/invoices/invoice-checkout-api-docs.ts';
import { contactApiDocs } from '../features/contact/contact-api-docs.ts';
import { csrfApiDocs } from '../platform/http/csrf-api-docs.ts';
import { isCsrfExempt } from '../platform/http/csrf-exempt.ts';
import { licenceCertificateApiDocs } from '../licensing/licence-certificates/licence-certificate-api-docs.ts';
import { licenceRecoveryApiDocs } from '../licensing/licence-recovery/licence-recovery-api-docs.ts';
import { licenceValidationApiDocs } from '../licensing/licence-validation/licence-validation-api-docs.ts';
import { paymentWebhookApiDocs } from '../billing/payments/webhook-api-docs.ts';
import { quoteApiDocs } from '../billing/quotes/quote-api-docs.ts';
import { releaseApiDocs } from '../licensing/releases/release-api-docs.ts';
import { trialApiDocs } from '../features/trials/trial-api-docs.ts';
import { defineApiDocs, type ApiOperationDoc } from '../platform/api-doc/api-doc.ts';
import { API_REFERENCE_PATH, API_REFERENCE_SCRIPT_PATH } from './api-reference-paths.ts';
import { invalidRequestErrorSchema } from '../platform/api-doc/common-errors.ts';
import { buildOpenApiDocument } from './build-openapi-document.ts';

export const OPENAPI_PATH = '/account/v1/openapi.json';

const openApiDocs = defineApiDocs([
  {
    method: 'get',
    path: OPENAPI_PATH,
    operationId: 'getOpenApiDocument',
    tag: 'Reference',
    summary: 'This OpenAPI 3.1 document',
    responses: {
      200: { description: 'The document.', schema: z.record(z.string(), z.unknown()) },
      400: { description: 'Query parameters were sent.', schema: invalidRequestErrorSchema },
    },
  },
  {
    method: 'get',
    path: API_REFERENCE_PATH,
    operationId: 'getApiReference',
    tag: 'Reference',
    summary: 'This document as an interactive reference (Scalar)',
    description:
      'An HTML page that loads Scalar’s bundle from this origin; its CSP allows inline code only by a per-request nonce.',
    responses: {
      200: { description: 'The page.', contentType: 'text/html', schema: z.string() },
      400: { description: 'Query parameters were sent.', schema: invalidRequestErrorSchema },
    },
  },
  {
    method: 'get',
    path: API_REFERENCE_SCRIPT_PATH,
    operationId: 'getApiReferenceScript',
    tag: 'Reference',
    summary: 'Scalar’s browser bundle for the reference page',
    description: 'Named by its version, so it is cached for a year.',
    responses: {
      200: { description: 'The script.', contentType: 'text/javascript', schema: z.string() },
      400: { description: 'Query parameters were sent.', schema: invalidRequestErrorSchema },
    },
  },
]);

/**
 * Every documented endpoint of the account service and the site's API. A domain that adds routes
 * exports its `xxxApiDocs` beside them and lists it here; `tests/api/licensing-openapi.test.ts`
 * fails when a registered route is missing here or a listed one does not answer.
 */
export const apiDocs: readonly ApiOperationDoc[] = [
  ...contactApiDocs,
  ...csrfApiDocs,
  ...trialApiDocs,
  ...billingPortalApiDocs,
  ...checkoutApiDocs,
  ...quoteApiDocs,
  ...invoiceCheckoutApiDocs,
  ...paymentWebhookApiDocs,
  ...releaseApiDocs,
  ...licenceValidationApiDocs,
  ...licenceCertificateApiDocs,
  ...accessTokenApiDocs,
  ...licenceRecoveryApiDocs,
  ...openApiDocs,
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
