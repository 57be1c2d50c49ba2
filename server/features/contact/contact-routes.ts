import { Hono } from 'hono';
import { contactMessageSchema } from '#shared/contracts/contact.ts';
import type { FeaturePorts } from '#server/features/feature-ports.ts';
import { defineRoute, defineRoutes } from '#server/platform/api-doc/define-route.ts';
import {
  invalidRequestErrorSchema,
  payloadTooLargeErrorSchema,
  tooManyRequestsErrorSchema,
  unsupportedMediaTypeErrorSchema,
} from '#server/platform/api-doc/common-errors.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import { gatePublicForm } from '#server/platform/rate-limit/enforce-rate-limits.ts';
import { rateLimitRules } from '#server/platform/rate-limit/rate-limit-rules.ts';
import { contactDepsOf, submitContactMessage } from './submit-contact-message.ts';

const submitContactFormRoute = defineRoute({
  method: 'post',
  path: '/api/submitContactForm',
  auth: 'csrf',
  operationId: 'submitContactForm',
  tag: 'Contact',
  origin: 'site',
  summary: 'Send a message through the contact form (docs/product-rules.md#service-calls)',
  request: { body: contactMessageSchema },
  responses: {
    204: { description: 'Received.' },
    400: { description: 'A field is missing or invalid.', schema: invalidRequestErrorSchema },
    413: { description: 'The body is larger than 16 KiB.', schema: payloadTooLargeErrorSchema },
    415: { description: 'The body is not JSON.', schema: unsupportedMediaTypeErrorSchema },
    429: { description: 'Too many messages.', schema: tooManyRequestsErrorSchema },
  },
});

/** `POST /api/submitContactForm` (docs/product-rules.md#service-calls): the website's contact form. */
export const contactRoutes = defineRoutes([submitContactFormRoute], (deps: FeaturePorts) => {
  const app = new Hono<AppEnv>();

  submitContactFormRoute.handle(app, async (c, request) => {
    const input = await gatePublicForm(
      c,
      deps.rateLimiter,
      {
        perIp: rateLimitRules.contactPerIp,
        perEmail: rateLimitRules.contactPerEmail,
        addressOf: (input) => input.emailAddress,
      },
      () => request.body(),
    );
    if (!input.ok) return input.response;
    const result = await submitContactMessage(contactDepsOf(deps, c.get('log')), input.value);
    if (result.outcome === 'stored') deps.wakeOutbox();
    return c.body(null, 204);
  });

  return app;
});
