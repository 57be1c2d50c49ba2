import { Hono } from 'hono';
import {
  BILLING_PORTAL_PAGE,
  billingPortalRequestSchema,
  OPEN_BILLING_PORTAL_PATH,
  openBillingPortalRequestSchema,
} from '#shared/contracts/billing-portal.ts';
import { errorCodes } from '#shared/contracts/error-codes.ts';
import { portalLinkNotices } from '#shared/contracts/messages.ts';
import type { AppDeps } from '#server/deps.ts';
import { readJsonBody } from '#server/platform/http/request-input.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import { noQueryParameters } from '#server/platform/api-doc/common-errors.ts';
import { rateLimitClient } from '#server/platform/rate-limit/client-ip.ts';
import {
  enforceRateLimits,
  gatePublicForm,
} from '#server/platform/rate-limit/enforce-rate-limits.ts';
import { rateLimitRules } from '#server/platform/rate-limit/rate-limit-rules.ts';
import { openBillingPortal, openPortalDepsOf } from './open-billing-portal.ts';
import { sendBillingPortalLink, sendLinkDepsOf } from './send-billing-portal-link.ts';

/**
 * `POST /account/v1/manage` (docs/product-rules.md#service-calls) sends the portal-access e-mail,
 * whose links open the site's landing page; its button's `POST /account/v1/billing-portal` uses a
 * link (decision 123).
 */
export function billingPortalRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { env } = deps;

  app.post('/account/v1/manage', async (c) => {
    const input = await gatePublicForm(
      c,
      deps.rateLimiter,
      {
        perIp: rateLimitRules.managePerIp,
        perEmail: rateLimitRules.managePerEmail,
        addressOf: (input) => input.emailAddress,
      },
      () => readJsonBody(c, billingPortalRequestSchema),
    );
    if (!input.ok) return input.response;
    const sent = await sendBillingPortalLink(sendLinkDepsOf(deps), input.value);
    deps.wakeOutbox();
    c.get('log').info(sent, 'billing-portal e-mail queued');
    return c.body(null, 204);
  });

  app.post(OPEN_BILLING_PORTAL_PATH, noQueryParameters, async (c) => {
    c.header('Cache-Control', 'no-store');
    const limited = await enforceRateLimits(
      c,
      deps.rateLimiter,
      [{ rule: rateLimitRules.openPortalPerIp, subject: rateLimitClient(c) }],
      { pacing: true },
    );
    if (limited) return limited;
    const body = await readJsonBody(c, openBillingPortalRequestSchema);
    if (!body.ok) return body.response;
    const result = await openBillingPortal(openPortalDepsOf(deps, c.get('log')), body.value.token);
    if (result.ok) return c.json({ url: result.url });
    if (result.reason === 'ProviderUnavailable') {
      return c.json(
        {
          Error: errorCodes.paymentProviderUnavailable,
          message: portalLinkNotices.unavailable,
        },
        503,
      );
    }
    return c.json(
      { Error: errorCodes.billingPortalLinkInvalid, message: portalLinkNotices.expired },
      410,
    );
  });

  // Links of e-mails sent before the landing page pointed here: lead to it, never use them.
  app.get(OPEN_BILLING_PORTAL_PATH, (c) => {
    c.header('Cache-Control', 'no-store');
    c.header('Referrer-Policy', 'no-referrer');
    const query = openBillingPortalRequestSchema.safeParse({ token: c.req.query('token') });
    const search = query.success ? `?token=${encodeURIComponent(query.data.token)}` : '';
    return c.redirect(`${env.PUBLIC_BASE_URL}${BILLING_PORTAL_PAGE}${search}`, 303);
  });

  return app;
}
