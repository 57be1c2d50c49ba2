import { Hono } from 'hono';
import { errorCodes } from '#shared/contracts/error-codes.ts';
import {
  keepTrialKeyMessages,
  keepTrialKeyRequestSchema,
  KEEP_TRIAL_KEY_PAGE,
  KEEP_TRIAL_KEY_PATH,
  keepTrialKeyFactsSchema,
} from '#shared/contracts/keep-trial-key.ts';
import type { BillingPorts } from '#server/billing/billing-ports.ts';
import {
  errorBodySchema,
  invalidRequestErrorSchema,
  noQueryParameters,
  payloadTooLargeErrorSchema,
  rateLimitHeadersDoc,
  tooManyRequestsErrorSchema,
  unsupportedMediaTypeErrorSchema,
} from '#server/platform/api-doc/common-errors.ts';
import { defineRoute, defineRoutes } from '#server/platform/api-doc/define-route.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import { rateLimitClient } from '#server/platform/rate-limit/client-ip.ts';
import { enforceRateLimits } from '#server/platform/rate-limit/enforce-rate-limits.ts';
import { rateLimitRules } from '#server/platform/rate-limit/rate-limit-rules.ts';
import { keepTrialKey } from './keep-trial-key.ts';
import { syncDepsOf } from './sync-subscription.ts';

const keepTrialKeyRoute = defineRoute({
  method: 'post',
  path: KEEP_TRIAL_KEY_PATH,
  auth: 'csrf',
  operationId: 'keepTrialKey',
  tag: 'Subscriptions',
  summary: 'Keep a trial key for a subscription bought with its address (decision 213)',
  description: `The button of the page (${KEEP_TRIAL_KEY_PAGE}?token=…) that the licence e-mail of a card purchase links to when the buyer's address has a trial that the checkout did not name. Uses the link once: the trial becomes the subscription's licence, the key e-mailed at purchase is revoked, and the trial-converted e-mail goes to the address. A GET of the page changes nothing.`,
  request: { body: keepTrialKeyRequestSchema },
  responses: {
    200: {
      description: 'The trial now carries the subscription.',
      schema: keepTrialKeyFactsSchema,
    },
    400: { description: 'Malformed JSON or token.', schema: invalidRequestErrorSchema },
    410: {
      description:
        'KeepTrialLinkInvalid: forged or expired, used already, or the trial was converted or revoked meanwhile; nothing changed.',
      schema: errorBodySchema,
    },
    413: { description: 'The body is larger than 16 KiB.', schema: payloadTooLargeErrorSchema },
    415: { description: 'The body is not JSON.', schema: unsupportedMediaTypeErrorSchema },
    429: {
      description: 'Too many requests from this address (30 an hour).',
      schema: tooManyRequestsErrorSchema,
      headers: rateLimitHeadersDoc,
    },
  },
});

/** `POST /account/v1/licenses/keep-trial-key`: the one place a subscription moves onto a trial. */
export const keepTrialRoutes = defineRoutes([keepTrialKeyRoute], (deps: BillingPorts) => {
  const app = new Hono<AppEnv>();

  keepTrialKeyRoute.handle(app, noQueryParameters, async (c, request) => {
    c.header('Cache-Control', 'no-store');
    const limited = await enforceRateLimits(
      c,
      deps.rateLimiter,
      [{ rule: rateLimitRules.keepTrialLinkPerIp, subject: rateLimitClient(c) }],
      { pacing: true },
    );
    if (limited) return limited;
    const body = await request.body();
    if (!body.ok) return body.response;
    const result = await keepTrialKey(syncDepsOf(deps), body.value.token);
    if (!result.ok) {
      return c.json(
        { Error: errorCodes.keepTrialLinkInvalid, message: keepTrialKeyMessages.linkInvalid },
        410,
      );
    }
    c.get('log').info(
      { subscriptionId: result.subscriptionId },
      'trial key kept for a subscription',
    );
    return c.json(result.facts, 200);
  });

  return app;
});
