import { attribute, customerActor } from '#server/platform/audit/audit-context.ts';
import { normalizeEmailAddress } from '#server/platform/email/normalize-email-address.ts';
import { Hono } from 'hono';
import { errorCodes } from '#shared/contracts/error-codes.ts';
import { trialErrorMessage } from '#shared/contracts/messages.ts';
import { trialRequestQuerySchema } from '#shared/contracts/trial.ts';
import { siteConfig } from '#shared/site-config.ts';
import type { FeaturePorts } from '#server/features/feature-ports.ts';
import {
  errorBodySchema,
  tooManyRequestsErrorSchema,
} from '#server/platform/api-doc/common-errors.ts';
import { defineRoute, defineRoutes } from '#server/platform/api-doc/define-route.ts';
import { refuseBody } from '#server/platform/http/request-input.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import { gatePublicForm } from '#server/platform/rate-limit/enforce-rate-limits.ts';
import { rateLimitRules } from '#server/platform/rate-limit/rate-limit-rules.ts';
import { startTrial, trialDepsOf } from './start-trial.ts';

const startTrialRoute = defineRoute({
  method: 'post',
  path: '/account/v1/licenses/trial',
  auth: 'csrf',
  operationId: 'startTrial',
  tag: 'Trials',
  summary:
    'Issue a two-month trial licence to an e-mail address (docs/product-rules.md#service-calls)',
  description:
    'Parameters in the query string, no body. The licence key is e-mailed; the answer has no body.',
  request: { query: trialRequestQuerySchema },
  responses: {
    204: { description: 'The licence was issued and its e-mail queued.' },
    400: {
      description: 'InvalidRequest, ProductIdInvalid or ReferralCodeInvalid.',
      schema: errorBodySchema,
    },
    409: {
      description: 'TrialLicenseAlreadyUsed: the address already held a licence.',
      schema: errorBodySchema,
    },
    429: { description: 'Too many requests.', schema: tooManyRequestsErrorSchema },
  },
});

/** `POST /account/v1/licenses/trial?emailAddress=…&productId=…[&referralCode=…]` (docs/product-rules.md#service-calls). */
export const trialRoutes = defineRoutes([startTrialRoute], (deps: FeaturePorts) => {
  const app = new Hono<AppEnv>();

  startTrialRoute.handle(app, async (c, request) => {
    const input = await gatePublicForm(
      c,
      deps.rateLimiter,
      {
        perIp: rateLimitRules.trialPerIp,
        perEmail: rateLimitRules.trialPerEmail,
        addressOf: (input) => input.emailAddress,
      },
      async () => {
        const query = request.query();
        if (!query.ok) return query;
        const withBody = await refuseBody(c);
        return withBody ? { ok: false, response: withBody } : query;
      },
    );
    if (!input.ok) return input.response;
    // Whoever asks for a trial for an address is audited as that address (decision 224).
    attribute({ actor: customerActor(normalizeEmailAddress(input.value.emailAddress)) });
    const result = await startTrial(trialDepsOf(deps), input.value);
    if (result.ok) {
      deps.wakeOutbox();
      c.get('log').info({ licenceId: result.licenceId }, 'trial licence issued');
      return c.body(null, 204);
    }
    switch (result.code) {
      case 'ProductIdInvalid':
        return c.json(
          {
            Error: errorCodes.productIdInvalid,
            message: `Trial licences are issued for the product id ${siteConfig.productId} only.`,
          },
          400,
        );
      case 'ReferralCodeInvalid':
        return c.json(
          { Error: errorCodes.referralCodeInvalid, message: trialErrorMessage(result.code) },
          400,
        );
      case 'TrialLicenseAlreadyUsed':
        return c.json(
          { Error: errorCodes.trialLicenseAlreadyUsed, message: trialErrorMessage(result.code) },
          409,
        );
    }
  });

  return app;
});
