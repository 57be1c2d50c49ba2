import { Hono } from 'hono';
import {
  BILLING_PORTAL_PAGE,
  billingPortalRequestSchema,
  OPEN_BILLING_PORTAL_PATH,
  openBillingPortalRequestSchema,
  openBillingPortalResponseSchema,
} from '#shared/contracts/billing-portal.ts';
import { errorCodes } from '#shared/contracts/error-codes.ts';
import { portalLinkNotices } from '#shared/contracts/messages.ts';
import type { BillingPorts } from '#server/billing/billing-ports.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import {
  noQueryParameters,
  errorBodySchema,
  invalidRequestErrorSchema,
  payloadTooLargeErrorSchema,
  rateLimitHeadersDoc,
  tooManyRequestsErrorSchema,
  unsupportedMediaTypeErrorSchema,
} from '#server/platform/api-doc/common-errors.ts';
import { rateLimitClient } from '#server/platform/rate-limit/client-ip.ts';
import {
  enforceRateLimits,
  gatePublicForm,
} from '#server/platform/rate-limit/enforce-rate-limits.ts';
import { rateLimitRules } from '#server/platform/rate-limit/rate-limit-rules.ts';
import { openBillingPortal, openPortalDepsOf } from './open-billing-portal.ts';
import { sendBillingPortalLink, sendLinkDepsOf } from './send-billing-portal-link.ts';
import { z } from 'zod';
import { MAX_PORTAL_LINKS } from './build-portal-links.ts';
import { defineRoute, defineRoutes } from '#server/platform/api-doc/define-route.ts';

const requestBillingPortalLinkRoute = defineRoute({
  method: 'post',
  path: '/account/v1/manage',
  auth: 'csrf',
  operationId: 'requestBillingPortalLink',
  tag: 'Subscriptions',
  summary: 'E-mail a link to the billing portal (docs/product-rules.md#service-calls)',
  description: `Answers the same whether or not a subscription exists for the address. Each address a subscription was bought with (compared as typed, not normalized) receives its own e-mail with one signed, single-use, 24-hour link per payment customer of its subscriptions (at most ${MAX_PORTAL_LINKS}); links never go to the address typed. A link opens the site page ${BILLING_PORTAL_PAGE}, whose button uses it.`,
  request: { body: billingPortalRequestSchema },
  responses: {
    204: { description: 'Accepted.' },
    400: { description: 'Malformed JSON or e-mail address.', schema: invalidRequestErrorSchema },
    413: { description: 'The body is larger than 16 KiB.', schema: payloadTooLargeErrorSchema },
    415: { description: 'The body is not JSON.', schema: unsupportedMediaTypeErrorSchema },
    429: { description: 'Too many requests.', schema: tooManyRequestsErrorSchema },
  },
});

const openBillingPortalRoute = defineRoute({
  method: 'post',
  path: OPEN_BILLING_PORTAL_PATH,
  auth: 'csrf',
  operationId: 'openBillingPortal',
  tag: 'Subscriptions',
  summary: 'Use a billing-portal link: the button of its landing page',
  description: `Uses the link's token once and opens a portal session of the link's customer. Only this POST uses a link: a GET of the e-mailed link (${BILLING_PORTAL_PAGE}?token=…) shows the landing page and changes nothing, so mail scanners that follow links cannot burn it.`,
  request: { body: openBillingPortalRequestSchema },
  responses: {
    200: { description: 'The portal session.', schema: openBillingPortalResponseSchema },
    400: { description: 'Malformed JSON or token.', schema: invalidRequestErrorSchema },
    410: {
      description:
        'BillingPortalLinkInvalid: forged, expired or already used, or its licence has gone or moved to another customer.',
      schema: errorBodySchema,
    },
    413: { description: 'The body is larger than 16 KiB.', schema: payloadTooLargeErrorSchema },
    415: { description: 'The body is not JSON.', schema: unsupportedMediaTypeErrorSchema },
    429: {
      description: 'Too many requests from this address.',
      schema: tooManyRequestsErrorSchema,
      headers: rateLimitHeadersDoc,
    },
    503: {
      description: 'PaymentProviderUnavailable: the provider failed; the link stays usable.',
      schema: errorBodySchema,
    },
  },
});

const followOlderBillingPortalLinkRoute = defineRoute({
  method: 'get',
  path: OPEN_BILLING_PORTAL_PATH,
  auth: 'public',
  operationId: 'followOlderBillingPortalLink',
  tag: 'Subscriptions',
  summary: 'The link of billing-portal e-mails sent before the landing page (browsers only)',
  request: {
    query: z.object({ token: z.string().describe('The signed, single-use link token.') }),
  },
  responses: {
    303: {
      description: `To the landing page ${BILLING_PORTAL_PAGE}?token=…; the token is not used.`,
    },
  },
});

/**
 * `POST /account/v1/manage` (docs/product-rules.md#service-calls) sends the portal-access e-mail,
 * whose links open the site's landing page; its button's `POST /account/v1/billing-portal` uses a
 * link (decision 123).
 */
export const billingPortalRoutes = defineRoutes(
  [requestBillingPortalLinkRoute, openBillingPortalRoute, followOlderBillingPortalLinkRoute],
  (deps: BillingPorts) => {
    const app = new Hono<AppEnv>();
    const { env } = deps;

    requestBillingPortalLinkRoute.handle(app, async (c, request) => {
      const input = await gatePublicForm(
        c,
        deps.rateLimiter,
        {
          perIp: rateLimitRules.managePerIp,
          perEmail: rateLimitRules.managePerEmail,
          addressOf: (input) => input.emailAddress,
        },
        () => request.body(),
      );
      if (!input.ok) return input.response;
      const sent = await sendBillingPortalLink(sendLinkDepsOf(deps), input.value);
      deps.wakeOutbox();
      c.get('log').info(sent, 'billing-portal e-mail queued');
      return c.body(null, 204);
    });

    openBillingPortalRoute.handle(app, noQueryParameters, async (c, request) => {
      c.header('Cache-Control', 'no-store');
      const limited = await enforceRateLimits(
        c,
        deps.rateLimiter,
        [{ rule: rateLimitRules.openPortalPerIp, subject: rateLimitClient(c) }],
        { pacing: true },
      );
      if (limited) return limited;
      const body = await request.body();
      if (!body.ok) return body.response;
      const result = await openBillingPortal(
        openPortalDepsOf(deps, c.get('log')),
        body.value.token,
      );
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
    followOlderBillingPortalLinkRoute.handle(app, (c) => {
      c.header('Cache-Control', 'no-store');
      c.header('Referrer-Policy', 'no-referrer');
      const query = openBillingPortalRequestSchema.safeParse({ token: c.req.query('token') });
      const search = query.success ? `?token=${encodeURIComponent(query.data.token)}` : '';
      return c.redirect(`${env.PUBLIC_BASE_URL}${BILLING_PORTAL_PAGE}${search}`, 303);
    });

    return app;
  },
);
