import { Hono } from 'hono';
import { z } from 'zod';
import { CONSOLE_API } from '#shared/contracts/console.ts';
import { invoiceCheckoutRequestSchema } from '#shared/contracts/invoice-checkout.ts';
import {
  consoleDeniedResponses,
  errorBodySchema,
  invalidRequestErrorSchema,
  noQueryParameters,
} from '#server/platform/api-doc/common-errors.ts';
import { defineRoute, defineRoutes } from '#server/platform/api-doc/define-route.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import type { BillingPorts } from '../billing-ports.ts';
import { syncDepsOf } from '../subscriptions/sync-subscription.ts';
import { viesClientOf } from '../vat/confirm-vat-id.ts';
import { reviewReasonSchema } from './invoice-approval.ts';
import { invoiceOrderAmounts } from './invoice-order-amounts.ts';
import { createInvoiceOrderRepository } from './invoice-order-repository.ts';
import { approveInvoiceOrder, rejectInvoiceOrder } from './review-invoice-order.ts';

const tag = 'Operator console';
const denied = consoleDeniedResponses;
const reviewBody = z.strictObject({ reason: reviewReasonSchema });

const queueRoute = defineRoute({
  method: 'get',
  path: `${CONSOLE_API}/invoice-orders/awaiting`,
  auth: { permission: 'billing.read' },
  operationId: 'listInvoiceOrdersAwaitingApproval',
  tag,
  summary: 'The invoice orders waiting for finance, oldest first (decision 230)',
  responses: { 200: { description: 'The queue.', schema: z.unknown() }, ...denied },
});

const approveRoute = defineRoute({
  method: 'post',
  path: `${CONSOLE_API}/invoice-orders/:id/approve`,
  auth: { permission: 'invoice_order.approve' },
  operationId: 'approveInvoiceOrder',
  tag,
  summary: 'Approve a waiting invoice order: the invoice and the key go out now',
  request: { body: reviewBody },
  responses: {
    200: { description: 'The order, confirmed, with its invoice.', schema: z.unknown() },
    400: { description: 'No reason.', schema: invalidRequestErrorSchema },
    404: { description: 'OrderNotFound.', schema: errorBodySchema },
    409: { description: 'NotAwaitingApproval.', schema: errorBodySchema },
    ...denied,
  },
});

const rejectRoute = defineRoute({
  method: 'post',
  path: `${CONSOLE_API}/invoice-orders/:id/reject`,
  auth: { permission: 'invoice_order.approve' },
  operationId: 'rejectInvoiceOrder',
  tag,
  summary: 'Reject a waiting invoice order; the buyer is e-mailed the reason',
  request: { body: reviewBody },
  responses: {
    200: { description: 'The order, rejected.', schema: z.unknown() },
    400: { description: 'No reason.', schema: invalidRequestErrorSchema },
    404: { description: 'OrderNotFound.', schema: errorBodySchema },
    409: { description: 'NotAwaitingApproval.', schema: errorBodySchema },
    ...denied,
  },
});

const statusOf = { OrderNotFound: 404, NotAwaitingApproval: 409, LinkInvalid: 409 } as const;

/** Finance's queue of invoice orders in the console (decision 230). */
export const invoiceOrderConsoleRoutes = defineRoutes(
  [queueRoute, approveRoute, rejectRoute],
  (deps: BillingPorts) => {
    const app = new Hono<AppEnv>();

    queueRoute.handle(app, noQueryParameters, async (c) => {
      const orders = await createInvoiceOrderRepository(deps.database.db).awaitingApproval(100);
      return c.json({
        orders: orders.map((order) => {
          const details = invoiceCheckoutRequestSchema.parse(order.details);
          return {
            id: order.id,
            companyName: details.companyName,
            billingEmail: order.billingEmail,
            edition: details.edition,
            quantity: details.quantity,
            amount: invoiceOrderAmounts(details),
            reviewReason: order.reviewReason,
            reviewDueAt: order.reviewDueAt?.toISOString() ?? null,
            createdAt: order.createdAt.toISOString(),
          };
        }),
      });
    });

    approveRoute.handle(app, noQueryParameters, async (c, input) => {
      const body = await input.body();
      if (!body.ok) return body.response;
      const result = await approveInvoiceOrder(
        { ...syncDepsOf(deps), vies: viesClientOf(deps.env) },
        c.req.param('id') ?? '',
      );
      if (!result.ok) {
        return c.json({ Error: result.code, message: result.message }, statusOf[result.code]);
      }
      return c.json({ order: result.order });
    });

    rejectRoute.handle(app, noQueryParameters, async (c, input) => {
      const body = await input.body();
      if (!body.ok) return body.response;
      const result = await rejectInvoiceOrder(
        syncDepsOf(deps),
        c.req.param('id') ?? '',
        body.value.reason,
      );
      if (!result.ok) {
        return c.json({ Error: result.code, message: result.message }, statusOf[result.code]);
      }
      return c.json({ order: { id: result.order.id, status: result.order.status } });
    });

    return app;
  },
);
