import { Hono } from 'hono';
import { checkoutRequestSchema } from '#shared/contracts/checkout.ts';
import { errorCodes } from '#shared/contracts/error-codes.ts';
import { billingErrorMessage } from '#shared/contracts/messages.ts';
import type { AppDeps } from '#server/deps.ts';
import { invalidRequest, readJsonBody } from '#server/platform/http/request-input.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import { isPaymentError } from '../payments/payment-errors.ts';
import { rateLimitClient } from '#server/platform/rate-limit/client-ip.ts';
import { enforceRateLimits } from '#server/platform/rate-limit/enforce-rate-limits.ts';
import { rateLimitRules } from '#server/platform/rate-limit/rate-limit-rules.ts';
import { checkoutDepsOf, createCheckoutSession } from './create-checkout-session.ts';

/** `POST /account/v1/checkout` (docs/product-rules.md#service-calls): validates, opens a provider session, answers `{ sessionId, url }`. */
export function checkoutRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const limiter = deps.rateLimiter;

  app.post('/account/v1/checkout', async (c) => {
    const limited = await enforceRateLimits(c, limiter, [
      { rule: rateLimitRules.checkoutPerIp, subject: rateLimitClient(c) },
    ]);
    if (limited) return limited;
    const body = await readJsonBody(c, checkoutRequestSchema);
    if (!body.ok) return body.response;

    let result;
    try {
      result = await createCheckoutSession(checkoutDepsOf(deps), body.value);
    } catch (error) {
      if (!isPaymentError(error)) throw error;
      c.get('log').error({ err: error }, 'checkout session could not be created');
      return c.json(
        { Error: errorCodes.paymentProviderUnavailable, message: billingErrorMessage(undefined) },
        503,
      );
    }
    if (result.ok) {
      c.get('log').info(
        { sessionId: result.session.sessionId, edition: body.value.edition },
        'checkout session created',
      );
      c.header('Cache-Control', 'no-store');
      return c.json(result.session, 201);
    }
    switch (result.code) {
      case 'ReturnUrlForeign':
        return invalidRequest(c, result.detail, [{ field: result.field, message: result.detail }]);
      case 'LicenseKeyUnknown':
        return c.json(
          { Error: errorCodes.licenseKeyUnknown, message: billingErrorMessage(result.code) },
          400,
        );
      case 'SubscriptionAlreadyExists':
        return c.json(
          {
            Error: errorCodes.subscriptionAlreadyExists,
            message: billingErrorMessage(result.code),
          },
          409,
        );
    }
  });

  return app;
}
