import { Hono } from 'hono';
import { checkoutRequestSchema, checkoutResponseSchema } from '#shared/contracts/checkout.ts';
import { checkoutMessages } from '#shared/contracts/checkout.ts';
import { licenceHolderMessages } from '#shared/contracts/licence-holder.ts';
import { errorCodes } from '#shared/contracts/error-codes.ts';
import { billingErrorMessage } from '#shared/contracts/messages.ts';
import type { BillingPorts } from '#server/billing/billing-ports.ts';
import { invalidRequest } from '#server/platform/http/request-input.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import { isPaymentError } from '../subscriptions/payment-errors.ts';
import { rateLimitClient } from '#server/platform/rate-limit/client-ip.ts';
import { enforceRateLimits } from '#server/platform/rate-limit/enforce-rate-limits.ts';
import { rateLimitRules } from '#server/platform/rate-limit/rate-limit-rules.ts';
import { checkoutDepsOf, createCheckoutSession } from './create-checkout-session.ts';
import {
  errorBodySchema,
  payloadTooLargeErrorSchema,
  tooManyRequestsErrorSchema,
  unsupportedMediaTypeErrorSchema,
} from '#server/platform/api-doc/common-errors.ts';
import { defineRoute, defineRoutes } from '#server/platform/api-doc/define-route.ts';

const createCheckoutSessionRoute = defineRoute({
  method: 'post',
  path: '/account/v1/checkout',
  auth: 'csrf',
  operationId: 'createCheckoutSession',
  tag: 'Subscriptions',
  summary: 'Open a checkout session for a plan (docs/product-rules.md#service-calls)',
  description:
    'The quantity is the pricing selector’s size and must fit the edition (Starter 3, Pro 4–24, Enterprise 25); the return URLs must be on the site’s origin. The buyer is a business: `companyName` always, and for Pro and Enterprise the address (`addressLine`, `postalCode`, `city`, `country`; `state` in the US, Canada and Australia) and optionally `vatId`, which VIES is asked about; the VAT follows the one rule (decisions 177, 210, 219) and is shown on the provider’s page before paying. `quoteToken` (the quote’s accept link token) makes the paid checkout accept that quote, once, for the company, address and VAT ID the quote names (decisions 154, 214, 219). `licenceHolderEmail` (paid plans, optional) names who receives the licence key when it is not the address paying; the receipt, payment e-mails and reminders still go to the address typed on the payment page, which is told where the key went; the same mailbox as that address counts as none (decision 223).',
  request: { body: checkoutRequestSchema },
  responses: {
    201: { description: 'The session.', schema: checkoutResponseSchema },
    400: {
      description:
        'InvalidRequest (fields: a missing company or address, a VAT ID or state that does not fit the country; licenceHolderEmail: not an e-mail address, on a free Starter checkout, or beside a trial key to convert of another address; quoteToken: not a quote’s link, or another plan than the quote’s; a company, address or VAT ID other than the quote’s) or LicenseKeyUnknown (trialLicenseKeyToConvert).',
      schema: errorBodySchema,
    },
    409: {
      description:
        'SubscriptionAlreadyExists: the trial key already belongs to a subscription; QuoteAlreadyAccepted or QuoteExpired: the quote cannot be bought (decision 214).',
      schema: errorBodySchema,
    },
    413: { description: 'The body is larger than 16 KiB.', schema: payloadTooLargeErrorSchema },
    415: { description: 'The body is not JSON.', schema: unsupportedMediaTypeErrorSchema },
    429: { description: 'Too many requests.', schema: tooManyRequestsErrorSchema },
    503: {
      description: 'PaymentProviderUnavailable: the payment provider did not answer.',
      schema: errorBodySchema,
    },
  },
});

/** `POST /account/v1/checkout` (docs/product-rules.md#service-calls): validates, opens a provider session, answers `{ sessionId, url }`. */
export const checkoutRoutes = defineRoutes([createCheckoutSessionRoute], (deps: BillingPorts) => {
  const app = new Hono<AppEnv>();
  const limiter = deps.rateLimiter;

  createCheckoutSessionRoute.handle(app, async (c, request) => {
    const limited = await enforceRateLimits(c, limiter, [
      { rule: rateLimitRules.checkoutPerIp, subject: rateLimitClient(c) },
    ]);
    if (limited) return limited;
    const body = await request.body();
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
      case 'QuoteLinkInvalid':
        return invalidRequest(c, checkoutMessages.quoteLinkInvalid, [
          { field: result.field, message: checkoutMessages.quoteLinkInvalid },
        ]);
      case 'QuotePlanDiffers':
        return invalidRequest(c, checkoutMessages.quotePlanDiffers, [
          { field: result.field, message: checkoutMessages.quotePlanDiffers },
        ]);
      case 'LicenceHolderWithTrialKey':
        return invalidRequest(c, licenceHolderMessages.notWithTrialKey, [
          { field: result.field, message: licenceHolderMessages.notWithTrialKey },
        ]);
      case 'QuoteBuyerDiffers':
        return invalidRequest(c, checkoutMessages.quoteBuyerDiffers, [
          { field: result.field, message: checkoutMessages.quoteBuyerDiffers },
        ]);
      case 'QuoteAccepted':
        return c.json(
          {
            Error: errorCodes.quoteAlreadyAccepted,
            message: billingErrorMessage(errorCodes.quoteAlreadyAccepted),
          },
          409,
        );
      case 'QuoteExpired':
        return c.json(
          { Error: errorCodes.quoteExpired, message: billingErrorMessage(errorCodes.quoteExpired) },
          409,
        );
    }
  });

  return app;
});
