import { Hono } from 'hono';
import { billingPortalRequestSchema } from '#shared/contracts/billing-portal.ts';
import type { AppDeps } from '../deps.ts';
import { readJsonBody } from '../http/request-input.ts';
import type { AppEnv } from '../http/types.ts';
import { gatePublicForm } from '../rate-limit/enforce-rate-limits.ts';
import { rateLimitRules } from '../rate-limit/rate-limit-rules.ts';
import { BILLING_PORTAL_LINK_PATH } from './build-portal-links.ts';
import { openBillingPortal, openPortalDepsOf } from './open-billing-portal.ts';
import { sendBillingPortalLink, sendLinkDepsOf } from './send-billing-portal-link.ts';

/**
 * `POST /account/v1/manage` (docs/product-rules.md#service-calls) sends the portal-access e-mail; `GET
 * /account/v1/billing-portal?token=…` is the link in it.
 */
export function billingPortalRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { env } = deps;

  app.post('/account/v1/manage', async (c) => {
    const input = await gatePublicForm(
      c,
      deps.rateLimiter,
      { perIp: rateLimitRules.managePerIp, perEmail: rateLimitRules.managePerEmail },
      () => readJsonBody(c, billingPortalRequestSchema),
    );
    if (!input.ok) return input.response;
    const { kind, links } = await sendBillingPortalLink(sendLinkDepsOf(deps), input.value);
    deps.wakeOutbox();
    c.get('log').info({ kind, links }, 'billing-portal e-mail queued');
    return c.body(null, 204);
  });

  // A browser follows this link from an e-mail: answers are redirects, never JSON.
  app.get(BILLING_PORTAL_LINK_PATH, async (c) => {
    const result = await openBillingPortal(
      openPortalDepsOf(deps, c.get('log')),
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
