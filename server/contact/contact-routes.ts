import { Hono } from 'hono';
import { contactMessageSchema } from '#shared/contracts/contact.ts';
import type { AppDeps } from '../deps.ts';
import { readJsonBody } from '../http/request-input.ts';
import type { AppEnv } from '../http/types.ts';
import { normalizeEmailAddress } from '../licences/normalize-email-address.ts';
import { clientIp } from '../rate-limit/client-ip.ts';
import { enforceRateLimits } from '../rate-limit/enforce-rate-limits.ts';
import { rateLimitRules } from '../rate-limit/rate-limit-rules.ts';
import { submitContactMessage } from './submit-contact-message.ts';

/** `POST /api/submitContactForm` (docs/product-rules.md#service-calls): the website's contact form. */
export function contactRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const limiter = deps.rateLimiter;

  app.post('/api/submitContactForm', async (c) => {
    const perIp = await enforceRateLimits(c, limiter, [
      { rule: rateLimitRules.contactPerIp, subject: clientIp(c) },
    ]);
    if (perIp) return perIp;
    const body = await readJsonBody(c, contactMessageSchema);
    if (!body.ok) return body.response;
    const perEmail = await enforceRateLimits(c, limiter, [
      {
        rule: rateLimitRules.contactPerEmail,
        subject: normalizeEmailAddress(body.value.emailAddress),
      },
    ]);
    if (perEmail) return perEmail;

    const result = await submitContactMessage(
      {
        db: deps.database.db,
        clock: deps.clock,
        logger: c.get('log'),
        supportEmail: deps.env.SUPPORT_EMAIL,
        publicBaseUrl: deps.env.PUBLIC_BASE_URL,
      },
      body.value,
    );
    if (result.outcome === 'stored') deps.wakeOutbox();
    return c.body(null, 204);
  });

  return app;
}
