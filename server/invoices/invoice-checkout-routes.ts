import { Hono } from 'hono';
import { errorCodes } from '#shared/contracts/error-codes.ts';
import { invoiceCheckoutRequestSchema } from '#shared/contracts/invoice-checkout.ts';
import { billingErrorMessage } from '#shared/contracts/messages.ts';
import type { AppDeps } from '../deps.ts';
import { invalidRequest, readJsonBody } from '../http/request-input.ts';
import type { AppEnv } from '../http/types.ts';
import { isPaymentError } from '../payments/payment-errors.ts';
import { syncDepsOf } from '../payments/sync-subscription.ts';
import { gatePublicForm } from '../rate-limit/enforce-rate-limits.ts';
import { rateLimitRules } from '../rate-limit/rate-limit-rules.ts';
import { createInvoiceCheckout } from './create-invoice-checkout.ts';

/** `POST /account/v1/checkout/invoice` (decision 144): a subscription paid by invoice, net 30. */
export function invoiceCheckoutRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.post('/account/v1/checkout/invoice', async (c) => {
    const body = await gatePublicForm(
      c,
      deps.rateLimiter,
      {
        perIp: rateLimitRules.invoiceCheckoutPerIp,
        perEmail: rateLimitRules.invoiceCheckoutPerEmail,
        addressOf: (order) => order.billingEmail,
      },
      () => readJsonBody(c, invoiceCheckoutRequestSchema),
    );
    if (!body.ok) return body.response;

    let result;
    try {
      result = await createInvoiceCheckout(syncDepsOf(deps), body.value);
    } catch (error) {
      if (!isPaymentError(error)) throw error;
      c.get('log').error({ err: error }, 'invoice subscription could not be created');
      return c.json(
        { Error: errorCodes.paymentProviderUnavailable, message: billingErrorMessage(undefined) },
        503,
      );
    }
    if (!result.ok) {
      return invalidRequest(c, result.detail, [{ field: 'billingPeriod', message: result.detail }]);
    }
    c.get('log').info(
      { subscriptionId: result.order.subscriptionId, edition: body.value.edition },
      'invoice subscription created',
    );
    c.header('Cache-Control', 'no-store');
    return c.json(result.order, 201);
  });

  return app;
}
