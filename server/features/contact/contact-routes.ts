import { Hono } from 'hono';
import { contactMessageSchema } from '#shared/contracts/contact.ts';
import type { AppDeps } from '#server/deps.ts';
import { readJsonBody } from '#server/platform/http/request-input.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import { gatePublicForm } from '#server/platform/rate-limit/enforce-rate-limits.ts';
import { rateLimitRules } from '#server/platform/rate-limit/rate-limit-rules.ts';
import { contactDepsOf, submitContactMessage } from './submit-contact-message.ts';

/** `POST /api/submitContactForm` (docs/product-rules.md#service-calls): the website's contact form. */
export function contactRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.post('/api/submitContactForm', async (c) => {
    const input = await gatePublicForm(
      c,
      deps.rateLimiter,
      {
        perIp: rateLimitRules.contactPerIp,
        perEmail: rateLimitRules.contactPerEmail,
        addressOf: (input) => input.emailAddress,
      },
      () => readJsonBody(c, contactMessageSchema),
    );
    if (!input.ok) return input.response;
    const result = await submitContactMessage(contactDepsOf(deps, c.get('log')), input.value);
    if (result.outcome === 'stored') deps.wakeOutbox();
    return c.body(null, 204);
  });

  return app;
}
