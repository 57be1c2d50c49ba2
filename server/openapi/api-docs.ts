import { CSRF_HEADER, CSRF_TOKEN_PATH, csrfCookieName } from '#shared/contracts/csrf.ts';
import type { ApiOperationDoc } from '../platform/api-doc/api-doc.ts';
import type { RouteAuth } from '../platform/route-auth/route-auth.ts';
import { buildOpenApiDocument, type SecurityRequirement } from './build-openapi-document.ts';

/** The cookie of an operator console session (issue 40; no console serves one yet). */
const CONSOLE_SESSION_COOKIE = '__Host-orgsmith-console';

/**
 * The credentials the API takes; `licenseKey` travels in the JSON body, which OpenAPI cannot name.
 * The document lists those its operations use.
 */
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
    consoleSession: {
      type: 'apiKey',
      in: 'cookie',
      name: CONSOLE_SESSION_COOKIE,
      description:
        'An operator console session; the requirement names the permission the operator’s role must grant.',
    },
  };
}

const csrf: SecurityRequirement = { csrfCookie: [], csrfHeader: [] };

/** What each declared `auth` asks of a caller, in OpenAPI's words (decision 225). */
function securityOf(auth: RouteAuth): SecurityRequirement[] {
  if (typeof auth === 'object') return [{ consoleSession: [auth.permission], ...csrf }];
  switch (auth) {
    // `licenceKey`: the key travels in the body, which OpenAPI cannot name; the operation says so.
    case 'public':
    case 'licenceKey':
      return [];
    case 'csrf':
      return [csrf];
    // The licence key in the body (nothing OpenAPI can name), or the bearer token.
    case 'accessToken':
      return [{}, { accessToken: [] }];
    case 'stripeSignature':
      return [{ stripeSignature: [] }];
    case 'consoleSession':
      return [{ consoleSession: [], ...csrf }];
  }
}

export interface ApiDocumentUrls {
  /** Base URL of the account service as clients call it. */
  accountBaseUrl: string;
  /** Origin of the website (for endpoints the site serves itself). */
  siteBaseUrl: string;
}

/**
 * The OpenAPI 3.1 document of the given endpoints: `apiDocument` in `server/domains.ts` gives
 * every domain's route definitions (decisions 168, 169).
 */
export function buildApiDocument(
  docs: readonly ApiOperationDoc[],
  urls: ApiDocumentUrls,
): Record<string, unknown> {
  const csrfCookie = csrfCookieName(urls.siteBaseUrl.startsWith('https:'));
  return buildOpenApiDocument(docs, {
    info: {
      title: 'Orgsmith account service',
      version: '1.0.0',
      description:
        'Trial licences, checkout, subscriptions, licence validation for the CLI and the release catalog. Error bodies carry `{"Error": "<Code>"}`.',
    },
    // The reference's order (decision 185): what a CLI author needs first, the site's own calls last.
    tagDescriptions: {
      'Licence validation': 'The CLI’s licence check.',
      'Licence certificates': 'Public keys that verify the certificates of valid licences.',
      'Access tokens':
        'Tokens for CI that the CLI sends instead of the licence key; created, listed and revoked with the key.',
      Releases: 'The release catalog, downloads and the release feed.',
      Trials: 'Two-month trial licences.',
      'Lost licence key': 'Replacing a lost licence key through a link e-mailed to its address.',
      'Licence page':
        'The customers’ licence page: sign-in by an e-mailed code or link, releasing an org.',
      Subscriptions: 'Checkout, the billing portal and what they start.',
      Webhooks: 'Events from the payment provider.',
      Contact: 'The site’s contact form.',
      Site: 'What the site’s own pages call.',
      Reference: 'This document.',
    },
    ...urls,
    securitySchemes: securitySchemes(csrfCookie),
    securityOf,
  });
}
