import { attribute, isActor } from '#server/platform/audit/audit-context.ts';
import { Hono } from 'hono';
import { errorCodes } from '#shared/contracts/error-codes.ts';
import type { BillingPorts } from '#server/billing/billing-ports.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import { isPaymentError } from '../subscriptions/payment-errors.ts';
import { handlePaymentEvent, syncDepsOf } from '../subscriptions/sync-subscription.ts';
import { z } from 'zod';
import {
  errorBodySchema,
  payloadTooLargeErrorSchema,
} from '#server/platform/api-doc/common-errors.ts';
import { defineRoute, defineRoutes } from '#server/platform/api-doc/define-route.ts';

/**
 * Stripe does not publish a maximum event size; its events embed at most a page of each list,
 * and the largest we have seen are tens of KiB. Anything above this is not from Stripe
 * (decision 127; `bodyLimits` in server/app.ts enforces it before the body is read).
 */
export const MAX_WEBHOOK_BYTES = 512 * 1024;

export const STRIPE_WEBHOOK_PATH = '/account/v1/webhooks/stripe';

const receiveStripeWebhookRoute = defineRoute({
  method: 'post',
  path: STRIPE_WEBHOOK_PATH,
  auth: 'stripeSignature',
  operationId: 'receiveStripeWebhook',
  tag: 'Webhooks',
  summary: 'Stripe events (signed with the webhook secret)',
  description:
    'Called by Stripe only. The signature in `Stripe-Signature` is checked on the raw body; each event is recorded once and the subscription is re-read.',
  request: {
    body: z.record(z.string(), z.unknown()).describe('A Stripe event.'),
  },
  responses: {
    200: {
      description: 'Processed (or already processed).',
      schema: z.object({ received: z.literal(true), outcome: z.string() }),
    },
    400: {
      description: 'The signature is not valid, or the signed event lacks `data.object`.',
      schema: errorBodySchema,
    },
    404: { description: 'Stripe is not configured on this server.', schema: errorBodySchema },
    413: { description: 'The event is too large.', schema: payloadTooLargeErrorSchema },
  },
});

/**
 * `POST /account/v1/webhooks/stripe`: verifies the signature on the raw body, then hands the
 * event to the sync, which records its id with its effect. 2xx tells Stripe to stop; a 5xx
 * (the sync failed) makes it deliver again later. Declared `stripeSignature`: no CSRF check.
 */
export const paymentWebhookRoutes = defineRoutes(
  [receiveStripeWebhookRoute],
  (deps: BillingPorts) => {
    const app = new Hono<AppEnv>();

    receiveStripeWebhookRoute.handle(app, async (c) => {
      if (deps.payments.name !== 'stripe') {
        return c.json(
          { Error: errorCodes.invalidRequest, message: 'Stripe is not configured on this server.' },
          404,
        );
      }
      const declared = Number(c.req.header('content-length') ?? '0');
      if (declared > MAX_WEBHOOK_BYTES) {
        return c.json({ Error: errorCodes.payloadTooLarge, message: 'Event too large.' }, 413);
      }
      const rawBody = await c.req.text();
      if (Buffer.byteLength(rawBody) > MAX_WEBHOOK_BYTES) {
        return c.json({ Error: errorCodes.payloadTooLarge, message: 'Event too large.' }, 413);
      }
      let event;
      try {
        event = deps.payments.parseWebhook(rawBody, c.req.header('stripe-signature'));
      } catch (error) {
        if (isPaymentError(error, 'SignatureInvalid')) {
          c.get('log').warn({ reason: error.message }, 'webhook refused');
          return c.json(
            { Error: errorCodes.invalidRequest, message: 'The webhook signature is not valid.' },
            400,
          );
        }
        // Signed, but unreadable: a 400 records nothing, where a 500 had Stripe retry for days.
        if (isPaymentError(error, 'EventInvalid')) {
          c.get('log').warn({ reason: error.message }, 'webhook refused');
          return c.json(
            {
              Error: errorCodes.invalidRequest,
              message: 'The event is not one this service reads.',
            },
            400,
          );
        }
        throw error;
      }
      // Every change the event makes is audited as Stripe's, by the event's id (decision 224).
      const actor = `stripe:${event.id}`;
      if (isActor(actor)) attribute({ actor });
      const result = await handlePaymentEvent(syncDepsOf(deps), event);
      c.get('log').info(
        { eventId: event.id, type: event.type, outcome: result.outcome },
        'webhook processed',
      );
      return c.json({ received: true, outcome: result.outcome });
    });

    return app;
  },
);
