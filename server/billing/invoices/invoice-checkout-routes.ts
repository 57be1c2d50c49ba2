import { Hono, type Context } from 'hono';
import { errorCodes } from '#shared/contracts/error-codes.ts';
import {
  CANCEL_INVOICE_ORDER_PATH,
  CONFIRM_INVOICE_ORDER_PATH,
  invoiceCheckoutMessages,
  invoiceCheckoutRequestSchema,
  invoiceOrderLinkRequestSchema,
  INVOICE_ORDER_PAGE,
  invoiceCheckoutResponseSchema,
  invoiceOrderInReviewSchema,
  invoiceOrderPlacedSchema,
  type InvoiceOrderInReview,
} from '#shared/contracts/invoice-checkout.ts';
import {
  invoiceOrderMessages,
  INVOICE_ORDERS_PER_DOMAIN,
} from '#shared/contracts/invoice-order-messages.ts';
import { billingErrorMessage } from '#shared/contracts/messages.ts';
import type { BillingPorts } from '#server/billing/billing-ports.ts';
import { invalidRequest } from '#server/platform/http/request-input.ts';
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
import type { Currency } from '#shared/pricing/index.ts';
import { noBankAccountMessage } from '../bank-accounts.ts';
import { isPaymentError } from '../subscriptions/payment-errors.ts';
import { syncDepsOf } from '../subscriptions/sync-subscription.ts';
import { viesClientOf } from '../vat/confirm-vat-id.ts';
import { rateLimitClient } from '#server/platform/rate-limit/client-ip.ts';
import {
  enforceRateLimits,
  gatePublicForm,
} from '#server/platform/rate-limit/enforce-rate-limits.ts';
import { rateLimitRules } from '#server/platform/rate-limit/rate-limit-rules.ts';
import { cancelInvoiceOrder } from './cancel-invoice-order.ts';
import { confirmInvoiceOrder } from './confirm-invoice-order.ts';
import { placeInvoiceOrder, type PlaceInvoiceOrderRefusal } from './place-invoice-order.ts';
import {
  defineRoute,
  defineRoutes,
  type RouteInput,
} from '#server/platform/api-doc/define-route.ts';

/** A refused order's answer: 400 with the field at fault, or 409 naming the way out. */
function refuse(c: Context<AppEnv>, code: PlaceInvoiceOrderRefusal, currency: Currency) {
  const field = (name: string, message: string) =>
    invalidRequest(c, message, [{ field: name, message }]);
  switch (code) {
    case 'NotInvoiceable':
      return field('billingPeriod', invoiceCheckoutMessages.notInvoiceable);
    case 'NoBankAccount':
      return field('billingCurrency', noBankAccountMessage(currency));
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

const reviewDay = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' });

const linkResponses = {
  400: { description: 'Malformed JSON or token.', schema: invalidRequestErrorSchema },
  410: {
    description:
      'InvoiceOrderLinkInvalid: unknown, expired, used (the order is confirmed) or cancelled.',
    schema: errorBodySchema,
  },
  413: { description: 'The body is larger than 16 KiB.', schema: payloadTooLargeErrorSchema },
  415: { description: 'The body is not JSON.', schema: unsupportedMediaTypeErrorSchema },
  429: {
    description: 'Too many requests from this address (30 an hour).',
    schema: tooManyRequestsErrorSchema,
    headers: rateLimitHeadersDoc,
  },
} as const;

const createInvoiceSubscriptionRoute = defineRoute({
  method: 'post',
  path: '/account/v1/checkout/invoice',
  auth: 'csrf',
  operationId: 'createInvoiceSubscription',
  tag: 'Subscriptions',
  summary: 'Order yearly Pro or Enterprise paid by invoice, net 30 (decisions 144, 153)',
  description: `Stores the order and e-mails a confirmation link to the billing address; nothing else happens until it is confirmed: no customer, subscription, invoice or licence. The link opens the site page ${INVOICE_ORDER_PAGE}?token=…, whose button confirms the order (\`POST ${CONFIRM_INVOICE_ORDER_PATH}\`). At most one confirmed unpaid order per billing address (normalized: case and +tags do not count; an unconfirmed order blocks nothing, its confirmation checks again) and ${INVOICE_ORDERS_PER_DOMAIN} confirmed unpaid orders per company e-mail domain (free-mail domains such as gmail.com are capped per address only). Company name and billing e-mail are required; the VAT ID (EU) and PO reference are printed on the invoice. \`quoteToken\` (the quote's accept link token) makes the order accept that quote, once (decision 154). \`licenceHolderEmail\` (optional) names who receives the licence key once the order is confirmed; the invoice, payment confirmation and reminders still go to the billing address, and the billing mailbox itself counts as none (decision 223).`,
  request: { body: invoiceCheckoutRequestSchema },
  responses: {
    201: {
      description: 'The order waits for the confirmation of its billing address.',
      schema: invoiceOrderPlacedSchema,
    },
    400: {
      description:
        'InvalidRequest: a field is missing or invalid, the plan is not yearly Pro or Enterprise (field billingPeriod), the seller has no bank account in the currency (field billingCurrency), or the quote link is not valid or names another plan (field quoteToken).',
      schema: errorBodySchema,
    },
    409: {
      description:
        'InvoiceOrderOpen: this billing address has a confirmed unpaid order; InvoiceOrderDomainLimit: its company domain has its open orders (free-mail domains are capped per address); QuoteAlreadyAccepted or QuoteExpired: the quote cannot be ordered. The message names the way out (contact sales).',
      schema: errorBodySchema,
    },
    413: { description: 'The body is larger than 16 KiB.', schema: payloadTooLargeErrorSchema },
    415: { description: 'The body is not JSON.', schema: unsupportedMediaTypeErrorSchema },
    429: {
      description:
        'Too many orders: from this client (10 an hour) or for this billing e-mail (5 a day).',
      schema: tooManyRequestsErrorSchema,
    },
  },
});

const confirmInvoiceOrderRoute = defineRoute({
  method: 'post',
  path: CONFIRM_INVOICE_ORDER_PATH,
  auth: 'csrf',
  operationId: 'confirmInvoiceOrder',
  tag: 'Subscriptions',
  summary: 'Confirm an invoice order: the button of its landing page',
  description: `Uses the link's token once: the provider creates the customer and the subscription, its invoice is sent net 30 and the licence is issued (key e-mailed). Of two confirmations at the same moment one creates the subscription. Only this POST uses a link: a GET of the e-mailed link (${INVOICE_ORDER_PAGE}?token=…) shows the order and changes nothing.`,
  request: { body: invoiceOrderLinkRequestSchema },
  responses: {
    200: { description: 'The order and its invoice.', schema: invoiceCheckoutResponseSchema },
    202: {
      description:
        'Confirmed, and waiting for finance (a company’s first order, or above INVOICE_APPROVAL_ABOVE; decision 230): no key and no invoice until an operator approves it; the buyer is e-mailed the day finance answers by.',
      schema: invoiceOrderInReviewSchema,
    },
    ...linkResponses,
    409: {
      description:
        'InvoiceOrderOpen: another order for this address was confirmed and is unpaid; InvoiceOrderDomainLimit: the domain has its open orders (either way the link stays usable); QuoteAlreadyAccepted: another order accepted the quote first (this one is cancelled); InvoiceCurrencyNotOffered: pay by invoice is no longer offered in the order’s currency (no bank account; the link stays usable).',
      schema: errorBodySchema,
    },
    503: {
      description: 'PaymentProviderUnavailable: the provider failed; the link stays usable.',
      schema: errorBodySchema,
    },
  },
});

const cancelInvoiceOrderRoute = defineRoute({
  method: 'post',
  path: CANCEL_INVOICE_ORDER_PATH,
  auth: 'csrf',
  operationId: 'cancelInvoiceOrder',
  tag: 'Subscriptions',
  summary: 'Cancel an invoice order that is not confirmed: the landing page’s other button',
  request: { body: invoiceOrderLinkRequestSchema },
  responses: {
    204: { description: 'Cancelled: the link is dead and the address may order again.' },
    ...linkResponses,
  },
});

type LinkInput = RouteInput<(typeof confirmInvoiceOrderRoute)['doc']['request']>;

/**
 * `POST /account/v1/checkout/invoice` (decisions 144, 153): an order paid by invoice, stored
 * until its billing address confirms it; `POST …/confirm` and `…/cancel` are the buttons of
 * the landing page the confirmation e-mail links to (a GET of that page changes nothing).
 */
export const invoiceCheckoutRoutes = defineRoutes(
  [createInvoiceSubscriptionRoute, confirmInvoiceOrderRoute, cancelInvoiceOrderRoute],
  (deps: BillingPorts) => {
    const app = new Hono<AppEnv>();

    createInvoiceSubscriptionRoute.handle(app, async (c, request) => {
      const body = await gatePublicForm(
        c,
        deps.rateLimiter,
        {
          perIp: rateLimitRules.invoiceCheckoutPerIp,
          perEmail: rateLimitRules.invoiceCheckoutPerEmail,
          addressOf: (order) => order.billingEmail,
        },
        () => request.body(),
      );
      if (!body.ok) return body.response;
      c.header('Cache-Control', 'no-store');
      const result = await placeInvoiceOrder(syncDepsOf(deps), body.value);
      if (!result.ok) {
        c.get('log').info({ code: result.code }, 'invoice order refused');
        return refuse(c, result.code, body.value.billingCurrency);
      }
      deps.wakeOutbox();
      c.get('log').info(
        { orderId: result.orderId, edition: body.value.edition },
        'invoice order waiting for its confirmation',
      );
      return c.json(result.placed, 201);
    });

    /** The landing page's buttons: per client, and the link's token in a JSON body. */
    async function readLink(c: Context<AppEnv>, request: LinkInput) {
      c.header('Cache-Control', 'no-store');
      const limited = await enforceRateLimits(
        c,
        deps.rateLimiter,
        [{ rule: rateLimitRules.invoiceOrderLinkPerIp, subject: rateLimitClient(c) }],
        { pacing: true },
      );
      if (limited) return { ok: false as const, response: limited };
      return request.body();
    }
    const linkInvalid = (c: Context<AppEnv>) =>
      c.json(
        { Error: errorCodes.invoiceOrderLinkInvalid, message: invoiceOrderMessages.linkInvalid },
        410,
      );

    confirmInvoiceOrderRoute.handle(app, noQueryParameters, async (c, request) => {
      const body = await readLink(c, request);
      if (!body.ok) return body.response;
      let result;
      try {
        result = await confirmInvoiceOrder(
          {
            ...syncDepsOf(deps),
            vies: viesClientOf(deps.env),
            invoiceApproval: deps.env.invoiceApproval,
          },
          body.value.token,
        );
      } catch (error) {
        if (!isPaymentError(error)) throw error;
        c.get('log').error({ err: error }, 'invoice subscription could not be created');
        return c.json(
          { Error: errorCodes.paymentProviderUnavailable, message: billingErrorMessage(undefined) },
          503,
        );
      }
      if (result.ok) {
        if (result.review) {
          c.get('log').info({ orderId: result.orderId }, 'invoice order waits for approval');
          const reviewBy = result.review.dueAt;
          return c.json(
            {
              status: 'in-review',
              orderId: result.orderId,
              reviewBy: reviewBy.toISOString(),
              message: invoiceOrderMessages.inReview(reviewDay.format(reviewBy)),
            } satisfies InvoiceOrderInReview,
            202,
          );
        }
        c.get('log').info(
          { orderId: result.orderId, subscriptionId: result.order.subscriptionId },
          'invoice subscription created',
        );
        return c.json(result.order, 200);
      }
      if (result.code === 'OrderOpen') {
        return c.json(
          { Error: errorCodes.invoiceOrderOpen, message: invoiceOrderMessages.orderOpen },
          409,
        );
      }
      if (result.code === 'DomainLimit') {
        return c.json(
          { Error: errorCodes.invoiceOrderDomainLimit, message: invoiceOrderMessages.domainLimit },
          409,
        );
      }
      if (result.code === 'NoBankAccount') {
        return c.json(
          {
            Error: errorCodes.invoiceCurrencyNotOffered,
            message: noBankAccountMessage(result.currency),
          },
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

    cancelInvoiceOrderRoute.handle(app, noQueryParameters, async (c, request) => {
      const body = await readLink(c, request);
      if (!body.ok) return body.response;
      const result = await cancelInvoiceOrder(syncDepsOf(deps), body.value.token);
      if (!result.ok) return linkInvalid(c);
      c.get('log').info({ orderId: result.orderId }, 'invoice order cancelled by its link');
      return c.body(null, 204);
    });

    return app;
  },
);
