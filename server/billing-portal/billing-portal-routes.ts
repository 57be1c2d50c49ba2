import { Hono } from 'hono';
import { billingPortalRequestSchema } from '#shared/contracts/billing-portal.ts';
import type { AppDeps } from '../deps.ts';
import { readJsonBody } from '../http/request-input.ts';
import type { AppEnv } from '../http/types.ts';
import { normalizeEmailAddress } from '../licences/normalize-email-address.ts';
import { clientIp } from '../rate-limit/client-ip.ts';
import { enforceRateLimits } from '../rate-limit/enforce-rate-limits.ts';
import { rateLimitRules } from '../rate-limit/rate-limit-rules.ts';
import { BILLING_PORTAL_LINK_PATH } from './build-portal-links.ts';
import { openBillingPortal } from './open-billing-portal.ts';
import { sendBillingPortalLink } from './send-billing-portal-link.ts';

/**
 * `POST /account/v1/manage` (docs/product-rules.md#service-calls) sends the portal-access e-mail; `GET
 * /account/v1/billing-portal?token=…` is the link in it.
 */
export function billingPortalRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { env } = deps;
  const limiter = deps.rateLimiter;

  app.post('/account/v1/manage', async (c) => {
    const perIp = await enforceRateLimits(c, limiter, [
      { rule: rateLimitRules.managePerIp, subject: clientIp(c) },
    ]);
    if (perIp) return perIp;
    const body = await readJsonBody(c, billingPortalRequestSchema);
    if (!body.ok) return body.response;
    const perEmail = await enforceRateLimits(c, limiter, [
      {
        rule: rateLimitRules.managePerEmail,
        subject: normalizeEmailAddress(body.value.emailAddress),
      },
    ]);
    if (perEmail) return perEmail;

    const { kind, links } = await sendBillingPortalLink(
      {
        db: deps.database.db,
        clock: deps.clock,
        secretKey: deps.secretKey,
        publicBaseUrl: env.PUBLIC_BASE_URL,
        accountApiUrl: env.ACCOUNT_API_URL ?? env.PUBLIC_BASE_URL,
      },
      body.value,
    );
    deps.wakeOutbox();
    c.get('log').info({ kind, links }, 'billing-portal e-mail queued');
    return c.body(null, 204);
  });

  // A browser follows this link from an e-mail: answers are redirects, never JSON.
  app.get(BILLING_PORTAL_LINK_PATH, async (c) => {
    const result = await openBillingPortal(
      {
        db: deps.database.db,
        clock: deps.clock,
        secretKey: deps.secretKey,
        payments: deps.payments,
        logger: c.get('log'),
        returnUrl: `${env.PUBLIC_BASE_URL}/`,
      },
      c.req.query('token') ?? '',
    );
    c.header('Cache-Control', 'no-store');
    c.header('Referrer-Policy', 'no-referrer');
    if (result.ok) return c.redirect(result.url, 303);
    const notice = result.reason === 'LinkExpired' ? 'expired' : 'unavailable';
    return c.redirect(`${env.PUBLIC_BASE_URL}/?modal=portal-access&portalLink=${notice}`, 303);
  });

  return app;
}
