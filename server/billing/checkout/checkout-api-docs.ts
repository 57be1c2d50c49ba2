import { z } from 'zod';
import { checkoutRequestSchema, type CheckoutResponse } from '#shared/contracts/checkout.ts';
import { defineApiDocs } from '#server/platform/api-doc/api-doc.ts';
import {
  errorBodySchema,
  payloadTooLargeErrorSchema,
  tooManyRequestsErrorSchema,
  unsupportedMediaTypeErrorSchema,
} from '#server/platform/api-doc/common-errors.ts';
import type { SameType } from '#server/platform/api-doc/same-type.ts';

const checkoutResponseSchema = z
  .object({
    sessionId: z.string(),
    url: z.string().describe('Where to send the buyer: the provider’s hosted checkout page.'),
  })
  .meta({ id: 'CheckoutSession' });

const responseMatches: SameType<z.output<typeof checkoutResponseSchema>, CheckoutResponse> = true;
void responseMatches;

export const checkoutApiDocs = defineApiDocs([
  {
    method: 'post',
    path: '/account/v1/checkout',
    operationId: 'createCheckoutSession',
    tag: 'Subscriptions',
    summary: 'Open a checkout session for a plan (docs/product-rules.md#service-calls)',
    description:
      'The quantity is the pricing selector’s size and must fit the edition (Starter 3, Pro 4–24, Enterprise 25); the return URLs must be on the site’s origin.',
    request: { body: checkoutRequestSchema },
    responses: {
      201: { description: 'The session.', schema: checkoutResponseSchema },
      400: {
        description: 'InvalidRequest (fields) or LicenseKeyUnknown (trialLicenseKeyToConvert).',
        schema: errorBodySchema,
      },
      409: {
        description: 'SubscriptionAlreadyExists: the trial key already belongs to a subscription.',
        schema: errorBodySchema,
      },
      413: { description: 'The body is larger than 16 KiB.', schema: payloadTooLargeErrorSchema },
      415: { description: 'The body is not JSON.', schema: unsupportedMediaTypeErrorSchema },
      429: { description: 'Too many requests.', schema: tooManyRequestsErrorSchema },
      503: {
        description: 'PaymentProviderUnavailable: the payment provider did not answer.',
        schema: errorBodySchema,
      },
    },
  },
]);
