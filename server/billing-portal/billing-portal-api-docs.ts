import { z } from 'zod';
import { billingPortalRequestSchema } from '#shared/contracts/billing-portal.ts';
import { defineApiDocs } from '../openapi/api-doc.ts';
import { BILLING_PORTAL_LINK_PATH, MAX_PORTAL_LINKS } from './build-portal-links.ts';
import {
  invalidRequestErrorSchema,
  payloadTooLargeErrorSchema,
  tooManyRequestsErrorSchema,
  unsupportedMediaTypeErrorSchema,
} from '../openapi/common-errors.ts';

export const billingPortalApiDocs = defineApiDocs([
  {
    method: 'post',
    path: '/account/v1/manage',
    operationId: 'requestBillingPortalLink',
    tag: 'Subscriptions',
    summary: 'E-mail a link to the billing portal (docs/product-rules.md#service-calls)',
    description: `Answers the same whether or not a subscription exists for the address. The e-mail holds one signed, single-use link per payment customer of the address (at most ${MAX_PORTAL_LINKS}).`,
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
    method: 'get',
    path: BILLING_PORTAL_LINK_PATH,
    operationId: 'openBillingPortal',
    tag: 'Subscriptions',
    summary: 'The link of the billing-portal e-mail (browsers only)',
    request: {
      query: z.object({ token: z.string().describe('The signed, single-use link token.') }),
    },
    responses: {
      303: {
        description:
          'To the payment provider’s portal of the link’s customer, or back to the site’s portal dialog when the link is forged, expired or used, or its licence has gone or moved to another customer.',
      },
    },
  },
]);
