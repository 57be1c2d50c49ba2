import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { CONSOLE_API } from '#shared/contracts/console.ts';
import {
  consoleDeniedResponses,
  errorBodySchema,
  invalidRequestErrorSchema,
  noQueryParameters,
} from '#server/platform/api-doc/common-errors.ts';
import { defineRoute, defineRoutes } from '#server/platform/api-doc/define-route.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import type { BillingPorts } from '../billing-ports.ts';
import { reviewReasonSchema } from '../invoices/invoice-approval.ts';
import { syncDepsOf } from '../subscriptions/sync-subscription.ts';
import { refundNeedsApproval } from './refund-approval.ts';
import { previewRefund } from './refund-payment.ts';
import { createRefundRequestRepository } from './refund-request-repository.ts';
import {
  approveRefundRequest,
  refundFormSchema,
  refundRequestView,
  rejectRefundRequest,
  requestRefund,
  type RefundRequestRefusal,
} from './request-refund.ts';

const tag = 'Operator console';
const denied = consoleDeniedResponses;

const refusals = {
  404: { description: 'NotFound: no such invoice or receipt.', schema: errorBodySchema },
  409: { description: 'OtherProvider: paid through the other provider.', schema: errorBodySchema },
  422: {
    description: 'NotPaid, or TooMuch: more than is left to refund (nothing was refunded).',
    schema: errorBodySchema,
  },
} as const;

const previewRoute = defineRoute({
  method: 'post',
  path: `${CONSOLE_API}/refunds/preview`,
  auth: { permission: 'refund.request' },
  operationId: 'previewRefund',
  tag,
  summary: 'What a refund would do: the rest to refund, whether the licence ends, whether it waits',
  request: { body: refundFormSchema },
  responses: {
    200: { description: 'The refund as it would be made; nothing changed.', schema: z.unknown() },
    400: { description: 'A field out of range, or no reason.', schema: invalidRequestErrorSchema },
    ...refusals,
    ...denied,
  },
});

const requestRoute = defineRoute({
  method: 'post',
  path: `${CONSOLE_API}/refunds`,
  auth: { permission: 'refund.request' },
  operationId: 'requestRefund',
  tag,
  summary:
    'Refund all or part of a paid invoice or receipt (above REFUND_APPROVAL_ABOVE: a request)',
  request: { body: refundFormSchema },
  responses: {
    200: {
      description: 'The same form was sent before: its request, unchanged.',
      schema: z.unknown(),
    },
    201: { description: 'Refunded, with its credit note.', schema: z.unknown() },
    202: {
      description: 'Above the threshold: waiting for a second operator.',
      schema: z.unknown(),
    },
    400: { description: 'A field out of range, or no reason.', schema: invalidRequestErrorSchema },
    ...refusals,
    ...denied,
  },
});

const listRoute = defineRoute({
  method: 'get',
  path: `${CONSOLE_API}/refunds`,
  auth: { permission: 'billing.read' },
  operationId: 'listRefunds',
  tag,
  summary: 'Refunds waiting for approval (oldest first) and the recent ones',
  responses: {
    200: { description: 'The queue and the recent refunds.', schema: z.unknown() },
    ...denied,
  },
});

const approveRoute = defineRoute({
  method: 'post',
  path: `${CONSOLE_API}/refunds/:id/approve`,
  auth: { permission: 'refund.approve' },
  operationId: 'approveRefund',
  tag,
  summary: 'Approve a waiting refund (not one’s own): it is made now',
  responses: {
    200: { description: 'Refunded, with its credit note.', schema: z.unknown() },
    404: { description: 'RequestNotFound.', schema: errorBodySchema },
    409: { description: 'NotPending.', schema: errorBodySchema },
    422: {
      description: 'The provider refused it now (TooMuch): it failed.',
      schema: errorBodySchema,
    },
    ...denied,
  },
});

const rejectRoute = defineRoute({
  method: 'post',
  path: `${CONSOLE_API}/refunds/:id/reject`,
  auth: { permission: 'refund.approve' },
  operationId: 'rejectRefund',
  tag,
  summary: 'Reject a waiting refund with a reason: nothing is refunded',
  request: { body: z.strictObject({ reason: reviewReasonSchema }) },
  responses: {
    200: { description: 'Rejected.', schema: z.unknown() },
    400: { description: 'No reason.', schema: invalidRequestErrorSchema },
    404: { description: 'RequestNotFound.', schema: errorBodySchema },
    409: { description: 'NotPending.', schema: errorBodySchema },
    ...denied,
  },
});

const statusOf = {
  NotFound: 404,
  RequestNotFound: 404,
  OtherProvider: 409,
  NotPending: 409,
  NotPaid: 422,
  TooMuch: 422,
  OwnRefundRequest: 403,
} as const;

const refused = (c: Context<AppEnv>, refusal: RefundRequestRefusal) =>
  c.json({ Error: refusal.code, message: refusal.message }, statusOf[refusal.code]);

/** Refunds in the console (decision 233) over decision 220's `refundPayment`. */
export const refundConsoleRoutes = defineRoutes(
  [previewRoute, requestRoute, listRoute, approveRoute, rejectRoute],
  (deps: BillingPorts) => {
    const app = new Hono<AppEnv>();
    const sync = () => syncDepsOf(deps);
    const above = deps.env.refundApprovalAboveMinor;
    const db = deps.database.db;

    /** The licence a subscription's refund touches, if it has one. */
    async function licenceOf(subscriptionId: string | null) {
      if (!subscriptionId) return null;
      const row = await createRefundRequestRepository(db).licenceOfSubscription(subscriptionId);
      return row ? { ...row, expiresAt: row.expiresAt?.toISOString() ?? null } : null;
    }

    previewRoute.handle(app, noQueryParameters, async (c, input) => {
      const body = await input.body();
      if (!body.ok) return body.response;
      const result = await previewRefund(sync(), {
        reference: body.value.reference,
        amountMinor: body.value.amountMinor ?? null,
        reason: body.value.reason,
      });
      if (!result.ok) return refused(c, { ok: false, code: result.code, message: result.detail });
      const { preview } = result;
      return c.json({
        preview,
        needsApproval: refundNeedsApproval(above, preview),
        approvalAboveMinor: above[preview.currency],
        licence: await licenceOf(preview.subscriptionId),
      });
    });

    requestRoute.handle(app, noQueryParameters, async (c, input) => {
      const body = await input.body();
      if (!body.ok) return body.response;
      const result = await requestRefund({ ...sync(), approvalAboveMinor: above }, body.value);
      if (!result.ok) return refused(c, result);
      const request = refundRequestView(result.request);
      if (result.replayed) return c.json({ replayed: true, request }, 200);
      return c.json({ replayed: false, request }, request.status === 'pending' ? 202 : 201);
    });

    listRoute.handle(app, noQueryParameters, async (c) => {
      const repository = createRefundRequestRepository(db);
      const [pending, recent] = await Promise.all([repository.pending(100), repository.recent(50)]);
      const rows = [...pending, ...recent];
      const emails = await repository.operatorEmails(
        rows.flatMap((row) => [row.requestedBy, row.reviewedBy ?? '']),
      );
      const operator = c.get('operator');
      return c.json({
        approvalAboveMinor: above,
        pending: pending.map((row) => ({
          ...refundRequestView(row, emails),
          ownRequest: operator !== undefined && row.requestedBy === `operator:${operator.id}`,
        })),
        recent: recent.map((row) => refundRequestView(row, emails)),
      });
    });

    approveRoute.handle(app, noQueryParameters, async (c) => {
      const result = await approveRefundRequest(sync(), c.req.param('id'));
      if (!result.ok) return refused(c, result);
      return c.json({ request: refundRequestView(result.request) });
    });

    rejectRoute.handle(app, noQueryParameters, async (c, input) => {
      const body = await input.body();
      if (!body.ok) return body.response;
      const result = await rejectRefundRequest(sync(), c.req.param('id'), body.value.reason);
      if (!result.ok) return refused(c, result);
      return c.json({ request: refundRequestView(result.request) });
    });

    return app;
  },
);
