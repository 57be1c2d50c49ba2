import { z } from 'zod';
import {
  BILLING_PORTAL_PAGE,
  billingPortalRequestSchema,
  OPEN_BILLING_PORTAL_PATH,
  openBillingPortalRequestSchema,
  type OpenBillingPortalResponse,
} from '#shared/contracts/billing-portal.ts';
import { defineApiDocs } from '#server/platform/api-doc/api-doc.ts';
import { MAX_PORTAL_LINKS } from './build-portal-links.ts';
import {
  errorBodySchema,
  invalidRequestErrorSchema,
  payloadTooLargeErrorSchema,
  rateLimitHeadersDoc,
  tooManyRequestsErrorSchema,
  unsupportedMediaTypeErrorSchema,
} from '#server/platform/api-doc/common-errors.ts';
import type { SameType } from '#server/platform/api-doc/same-type.ts';

const openBillingPortalResponseSchema = z
  .object({
    url: z.string().describe('Where to send the browser: the payment provider’s portal session.'),
  })
  .meta({ id: 'BillingPortalSession' });

const responseMatches: SameType<
  z.output<typeof openBillingPortalResponseSchema>,
  OpenBillingPortalResponse
> = true;
void responseMatches;

export const billingPortalApiDocs = defineApiDocs([
  {
    method: 'post',
    path: '/account/v1/manage',
    operationId: 'requestBillingPortalLink',
    tag: 'Subscriptions',
    summary: 'E-mail a link to the billing portal (docs/product-rules.md#service-calls)',
    description: `Answers the same whether or not a subscription exists for the address. Each address a subscription was bought with (compared as typed, not normalized) receives its own e-mail with one signed, single-use, 24-hour link per payment customer of its subscriptions (at most ${MAX_PORTAL_LINKS}); links never go to the address typed. A link opens the site page ${BILLING_PORTAL_PAGE}, whose button uses it.`,
    request: { body: billingPortalRequestSchema },
    responses: {
      204: { description: 'Accepted.' },
      400: { description: 'Malformed JSON or e-mail address.', schema: invalidRequestErrorSchema },
      413: { description: 'The body is larger than 16 KiB.', schema: payloadTooLargeErrorSchema },
      415: { description: 'The body is not JSON.', schema: unsupportedMediaTypeErrorSchema },
      429: { description: 'Too many requests.', schema: tooManyRequestsErrorSchema },
    },
  },
  {
    method: 'post',
    path: OPEN_BILLING_PORTAL_PATH,
    operationId: 'openBillingPortal',
    tag: 'Subscriptions',
    summary: 'Use a billing-portal link: the button of its landing page',
    description: `Uses the link's token once and opens a portal session of the link's customer. Only this POST uses a link: a GET of the e-mailed link (${BILLING_PORTAL_PAGE}?token=…) shows the landing page and changes nothing, so mail scanners that follow links cannot burn it.`,
    request: { body: openBillingPortalRequestSchema },
    responses: {
      200: { description: 'The portal session.', schema: openBillingPortalResponseSchema },
      400: { description: 'Malformed JSON or token.', schema: invalidRequestErrorSchema },
      410: {
        description:
          'BillingPortalLinkInvalid: forged, expired or already used, or its licence has gone or moved to another customer.',
        schema: errorBodySchema,
      },
      413: { description: 'The body is larger than 16 KiB.', schema: payloadTooLargeErrorSchema },
      415: { description: 'The body is not JSON.', schema: unsupportedMediaTypeErrorSchema },
      429: {
        description: 'Too many requests from this address.',
        schema: tooManyRequestsErrorSchema,
        headers: rateLimitHeadersDoc,
      },
      503: {
        description: 'PaymentProviderUnavailable: the provider failed; the link stays usable.',
        schema: errorBodySchema,
      },
    },
  },
  {
    method: 'get',
    path: OPEN_BILLING_PORTAL_PATH,
    operationId: 'followOlderBillingPortalLink',
    tag: 'Subscriptions',
    summary: 'The link of billing-portal e-mails sent before the landing page (browsers only)',
    request: {
      query: z.object({ token: z.string().describe('The signed, single-use link token.') }),
    },
    responses: {
      303: {
        description: `To the landing page ${BILLING_PORTAL_PAGE}?token=…; the token is not used.`,
      },
    },
  },
]);
