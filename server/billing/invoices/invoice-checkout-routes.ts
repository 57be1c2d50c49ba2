import { Hono, type Context } from 'hono';
import { errorCodes } from '#shared/contracts/error-codes.ts';
import {
  CANCEL_INVOICE_ORDER_PATH,
  CONFIRM_INVOICE_ORDER_PATH,
  invoiceCheckoutMessages,
  invoiceCheckoutRequestSchema,
  invoiceOrderLinkRequestSchema,
} from '#shared/contracts/invoice-checkout.ts';
import { invoiceOrderMessages } from '#shared/contracts/invoice-order-messages.ts';
import { billingErrorMessage } from '#shared/contracts/messages.ts';
import type { AppDeps } from '#server/deps.ts';
import { invalidRequest, readJsonBody } from '#server/platform/http/request-input.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import { noQueryParameters } from '#server/platform/api-doc/common-errors.ts';
import { isPaymentError } from '../payments/payment-errors.ts';
import { syncDepsOf } from '../subscriptions/sync-subscription.ts';
import { rateLimitClient } from '#server/platform/rate-limit/client-ip.ts';
import {
  enforceRateLimits,
  gatePublicForm,
} from '#server/platform/rate-limit/enforce-rate-limits.ts';
import { rateLimitRules } from '#server/platform/rate-limit/rate-limit-rules.ts';
import { cancelInvoiceOrder } from './cancel-invoice-order.ts';
import { confirmInvoiceOrder } from './confirm-invoice-order.ts';
import { placeInvoiceOrder, type PlaceInvoiceOrderRefusal } from './place-invoice-order.ts';

/** A refused order's answer: 400 with the field at fault, or 409 naming the way out. */
function refuse(c: Context<AppEnv>, code: PlaceInvoiceOrderRefusal) {
  const field = (name: string, message: string) =>
    invalidRequest(c, message, [{ field: name, message }]);
  switch (code) {
    case 'NotInvoiceable':
      return field('billingPeriod', invoiceCheckoutMessages.notInvoiceable);
    case 'QuoteLinkInvalid':
      return field('quoteToken', invoiceCheckoutMessages.quoteLinkInvalid);
    case 'QuotePlanDiffers':
      return field('quoteToken', invoiceCheckoutMessages.quotePlanDiffers);
    case 'QuoteAccepted':
      return c.json(
        { Error: errorCodes.quoteAlreadyAccepted, message: invoiceOrderMessages.quoteAccepted },
        409,
      );
    case 'QuoteExpired':
      return c.json(
        { Error: errorCodes.quoteExpired, message: invoiceOrderMessages.quoteExpired },
        409,
      );
    case 'OrderOpen':
      return c.json(
        { Error: errorCodes.invoiceOrderOpen, message: invoiceOrderMessages.orderOpen },
        409,
      );
    case 'DomainLimit':
      return c.json(
        { Error: errorCodes.invoiceOrderDomainLimit, message: invoiceOrderMessages.domainLimit },
        409,
      );
  }
}

/**
 * `POST /account/v1/checkout/invoice` (decisions 144, 153): an order paid by invoice, stored
 * until its billing address confirms it; `POST …/confirm` and `…/cancel` are the buttons of
 * the landing page the confirmation e-mail links to (a GET of that page changes nothing).
 */
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
    c.header('Cache-Control', 'no-store');
    const result = await placeInvoiceOrder(syncDepsOf(deps), body.value);
    if (!result.ok) {
      c.get('log').info({ code: result.code }, 'invoice order refused');
      return refuse(c, result.code);
    }
    deps.wakeOutbox();
    c.get('log').info(
      { orderId: result.orderId, edition: body.value.edition },
      'invoice order waiting for its confirmation',
    );
    return c.json(result.placed, 201);
  });

  /** The landing page's buttons: per client, and the link's token in a JSON body. */
  async function readLink(c: Context<AppEnv>) {
    c.header('Cache-Control', 'no-store');
    const limited = await enforceRateLimits(
      c,
      deps.rateLimiter,
      [{ rule: rateLimitRules.invoiceOrderLinkPerIp, subject: rateLimitClient(c) }],
      { pacing: true },
    );
    if (limited) return { ok: false as const, response: limited };
    return readJsonBody(c, invoiceOrderLinkRequestSchema);
  }
  const linkInvalid = (c: Context<AppEnv>) =>
    c.json(
      { Error: errorCodes.invoiceOrderLinkInvalid, message: invoiceOrderMessages.linkInvalid },
      410,
    );

  app.post(CONFIRM_INVOICE_ORDER_PATH, noQueryParameters, async (c) => {
    const body = await readLink(c);
    if (!body.ok) return body.response;
    let result;
    try {
      result = await confirmInvoiceOrder(syncDepsOf(deps), body.value.token);
    } catch (error) {
      if (!isPaymentError(error)) throw error;
      c.get('log').error({ err: error }, 'invoice subscription could not be created');
      return c.json(
        { Error: errorCodes.paymentProviderUnavailable, message: billingErrorMessage(undefined) },
        503,
      );
    }
    if (result.ok) {
      c.get('log').info(
        { orderId: result.orderId, subscriptionId: result.order.subscriptionId },
        'invoice subscription created',
      );
      return c.json(result.order, 200);
    }
    if (result.code === 'DomainLimit') {
      return c.json(
        { Error: errorCodes.invoiceOrderDomainLimit, message: invoiceOrderMessages.domainLimit },
        409,
      );
    }
    if (result.code === 'QuoteAccepted') {
      return c.json(
        { Error: errorCodes.quoteAlreadyAccepted, message: invoiceOrderMessages.quoteAccepted },
        409,
      );
    }
    return linkInvalid(c);
  });

  app.post(CANCEL_INVOICE_ORDER_PATH, noQueryParameters, async (c) => {
    const body = await readLink(c);
    if (!body.ok) return body.response;
    const result = await cancelInvoiceOrder(syncDepsOf(deps), body.value.token);
    if (!result.ok) return linkInvalid(c);
    c.get('log').info({ orderId: result.orderId }, 'invoice order cancelled by its link');
    return c.body(null, 204);
  });

  return app;
}
