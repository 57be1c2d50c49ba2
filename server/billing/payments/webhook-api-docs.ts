import { z } from 'zod';
import { defineApiDocs } from '#server/platform/api-doc/api-doc.ts';
import {
  errorBodySchema,
  payloadTooLargeErrorSchema,
} from '#server/platform/api-doc/common-errors.ts';

export const paymentWebhookApiDocs = defineApiDocs([
  {
    method: 'post',
    path: '/account/v1/webhooks/stripe',
    operationId: 'receiveStripeWebhook',
    tag: 'Webhooks',
    summary: 'Stripe events (signed with the webhook secret)',
    description:
      'Called by Stripe only. The signature in `Stripe-Signature` is checked on the raw body; each event is recorded once and the subscription is re-read.',
    security: [{ stripeSignature: [] }],
    request: {
      body: z.record(z.string(), z.unknown()).describe('A Stripe event.'),
    },
    responses: {
      200: {
        description: 'Processed (or already processed).',
        schema: z.object({ received: z.literal(true), outcome: z.string() }),
      },
      400: { description: 'The signature is not valid.', schema: errorBodySchema },
      404: { description: 'Stripe is not configured on this server.', schema: errorBodySchema },
      413: { description: 'The event is too large.', schema: payloadTooLargeErrorSchema },
    },
  },
]);
