import { Hono } from 'hono';
import { z } from 'zod';
import { CONSOLE_API } from '#shared/contracts/console.ts';
import { errorCodes } from '#shared/contracts/error-codes.ts';
import { licencePageKeyMessages } from '#shared/contracts/licence-page.ts';
import { singleLineCheck } from '#shared/contracts/fields.ts';
import {
  consoleDeniedResponses,
  errorBodySchema,
  invalidRequestErrorSchema,
  noQueryParameters,
} from '#server/platform/api-doc/common-errors.ts';
import { defineRoute, defineRoutes } from '#server/platform/api-doc/define-route.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import type { FeaturePorts } from '../feature-ports.ts';
import {
  answerChangeRequest,
  changeRequestView,
  listChangeRequests,
} from './change-request-repository.ts';
import {
  checkCustomerView,
  endCustomerView,
  readCustomerView,
  startCustomerView,
  VIEW_AS_MINUTES,
} from './customer-view-repository.ts';

const tag = 'Operator console';
const denied = consoleDeniedResponses;

/** A reason the customer (change requests) or the audit log (views) reads: one line. */
const reasonField = z
  .string('A reason is required')
  .trim()
  .min(3, 'The reason is at least 3 characters')
  .max(300, 'The reason is at most 300 characters')
  .check(singleLineCheck());

const answerBody = z.strictObject({ reason: reasonField });

const changeRequestsRoute = defineRoute({
  method: 'get',
  path: `${CONSOLE_API}/change-requests`,
  auth: { permission: 'billing.read' },
  operationId: 'listChangeRequests',
  tag,
  summary: 'Customers’ change requests of subscriptions paid by invoice (decision 236)',
  request: {
    query: z.strictObject({ status: z.enum(['open', 'done', 'declined']).default('open') }),
  },
  responses: {
    200: {
      description: 'Open ones oldest first; answered ones newest first.',
      schema: z.unknown(),
    },
    400: { description: 'An unknown status.', schema: invalidRequestErrorSchema },
    ...denied,
  },
});

const answerRoutes = (['done', 'decline'] as const).map((answer) => ({
  answer,
  route: defineRoute({
    method: 'post',
    path: `${CONSOLE_API}/change-requests/:id/${answer}`,
    auth: { permission: 'change_request.answer' },
    operationId: answer === 'done' ? 'markChangeRequestDone' : 'declineChangeRequest',
    tag,
    summary:
      answer === 'done'
        ? 'Mark a change request done (the change was made with the billing operations); the customer is e-mailed'
        : 'Decline a change request; the customer is e-mailed the reason',
    request: { body: answerBody },
    responses: {
      200: { description: 'The request, answered.', schema: z.unknown() },
      400: { description: 'No reason.', schema: invalidRequestErrorSchema },
      404: { description: 'ChangeRequestNotFound.', schema: errorBodySchema },
      409: { description: 'ChangeRequestAnswered: answered already.', schema: errorBodySchema },
      ...denied,
    },
  }),
}));

const startViewRoute = defineRoute({
  method: 'post',
  path: `${CONSOLE_API}/view-as`,
  auth: { permission: 'licence.read' },
  operationId: 'viewAsCustomer',
  tag,
  summary: `View a customer's licence page read-only for ${VIEW_AS_MINUTES} minutes, with a reason`,
  request: {
    body: z.strictObject({ address: z.email().max(254), reason: reasonField }),
  },
  responses: {
    201: {
      description: 'The view: open its page on the console (`path`).',
      schema: z.object({ id: z.uuid(), expiresAt: z.iso.datetime(), path: z.string() }),
    },
    400: { description: 'No address or no reason.', schema: invalidRequestErrorSchema },
    404: { description: 'CustomerNotFound: no licence is issued to it.', schema: errorBodySchema },
    ...denied,
  },
});

const readViewRoute = defineRoute({
  method: 'get',
  path: `${CONSOLE_API}/view-as/:id`,
  auth: { permission: 'licence.read' },
  operationId: 'readCustomerView',
  tag,
  summary: 'The licence page the customer sees now, while the view lasts',
  responses: {
    200: { description: 'The view and the page’s data.', schema: z.unknown() },
    404: { description: 'ViewNotFound: not a view of this operator.', schema: errorBodySchema },
    410: { description: 'ViewEnded: ended or expired.', schema: errorBodySchema },
    ...denied,
  },
});

const endViewRoute = defineRoute({
  method: 'post',
  path: `${CONSOLE_API}/view-as/:id/end`,
  auth: { permission: 'licence.read' },
  operationId: 'endCustomerView',
  tag,
  summary: 'End a view as customer (audited)',
  responses: {
    204: { description: 'Ended.' },
    404: { description: 'ViewNotFound.', schema: errorBodySchema },
    410: { description: 'ViewEnded: it was over already.', schema: errorBodySchema },
    ...denied,
  },
});

const refuseWriteRoute = defineRoute({
  method: 'post',
  path: `${CONSOLE_API}/view-as/:id/actions/:action`,
  auth: { permission: 'licence.read' },
  operationId: 'refuseCustomerViewWrite',
  tag,
  summary: 'Where the read-only view sends its buttons: every one is refused',
  request: { body: z.looseObject({}) },
  responses: {
    ...denied,
    403: {
      description:
        'ViewAsReadOnly: nothing was changed (every time); PermissionDenied without licence.read.',
      schema: errorBodySchema,
    },
    404: { description: 'ViewNotFound.', schema: errorBodySchema },
    410: { description: 'ViewEnded.', schema: errorBodySchema },
  },
});

const viewMissing = {
  ViewNotFound: { status: 404, message: 'You have no view with this id.' },
  ViewEnded: { status: 410, message: 'This view has ended. Start a new one to look again.' },
} as const;

/**
 * The console's side of the licence page (decision 236): finance's queue of change requests and
 * support's read-only view as a customer.
 */
export const licencePageConsoleRoutes = defineRoutes(
  [
    changeRequestsRoute,
    ...answerRoutes.map((entry) => entry.route),
    startViewRoute,
    readViewRoute,
    endViewRoute,
    refuseWriteRoute,
  ],
  (deps: FeaturePorts) => {
    const app = new Hono<AppEnv>();
    const db = deps.database.db;
    const viewDeps = {
      db,
      secretKey: deps.secretKey,
      publicBaseUrl: deps.env.PUBLIC_BASE_URL,
      clock: deps.clock,
    };
    const operatorOf = (c: { get(key: 'operator'): AppEnv['Variables']['operator'] }) => {
      const operator = c.get('operator');
      if (!operator) throw new Error('a console route ran without an operator');
      return operator;
    };

    changeRequestsRoute.handle(app, async (c, input) => {
      const query = input.query();
      if (!query.ok) return query.response;
      return c.json({ requests: await listChangeRequests(db, query.value.status) });
    });

    for (const { answer, route } of answerRoutes) {
      route.handle(app, noQueryParameters, async (c, input) => {
        const body = await input.body();
        if (!body.ok) return body.response;
        const operator = operatorOf(c);
        const result = await answerChangeRequest(viewDeps, {
          id: z.uuid().safeParse(c.req.param('id')).data ?? '',
          outcome: answer === 'done' ? 'done' : 'declined',
          reason: body.value.reason,
          answeredBy: `operator:${operator.id}`,
        });
        if (!result.ok) {
          return result.code === 'ChangeRequestNotFound'
            ? c.json({ Error: result.code, message: 'No change request has this id.' }, 404)
            : c.json({ Error: result.code, message: 'This request was answered already.' }, 409);
        }
        deps.wakeOutbox();
        return c.json({ ...changeRequestView(result.request), emailed: result.emailed });
      });
    }

    startViewRoute.handle(app, noQueryParameters, async (c, input) => {
      const body = await input.body();
      if (!body.ok) return body.response;
      const result = await startCustomerView(viewDeps, operatorOf(c), body.value);
      if (!result.ok) {
        return c.json(
          { Error: result.code, message: 'No licence is issued to this address.' },
          404,
        );
      }
      return c.json(
        {
          id: result.id,
          expiresAt: result.expiresAt.toISOString(),
          path: `/console/view-as/${result.id}`,
        },
        201,
      );
    });

    const viewId = (raw: string | undefined) => z.uuid().safeParse(raw).data ?? '';

    readViewRoute.handle(app, noQueryParameters, async (c) => {
      const id = viewId(c.req.param('id'));
      const result = id
        ? await readCustomerView(viewDeps, operatorOf(c).id, id)
        : ({ ok: false, code: 'ViewNotFound' } as const);
      if (!result.ok) {
        const missing = viewMissing[result.code];
        return c.json({ Error: result.code, message: missing.message }, missing.status);
      }
      return c.json(result.viewing);
    });

    endViewRoute.handle(app, noQueryParameters, async (c) => {
      const id = viewId(c.req.param('id'));
      const result = id
        ? await endCustomerView(viewDeps, operatorOf(c).id, id)
        : ({ ok: false, code: 'ViewNotFound' } as const);
      if (!result.ok) {
        const missing = viewMissing[result.code];
        return c.json({ Error: result.code, message: missing.message }, missing.status);
      }
      return c.body(null, 204);
    });

    refuseWriteRoute.handle(app, noQueryParameters, async (c) => {
      const id = viewId(c.req.param('id'));
      const result = id
        ? await checkCustomerView(viewDeps, operatorOf(c).id, id)
        : ({ ok: false, code: 'ViewNotFound' } as const);
      if (!result.ok) {
        const missing = viewMissing[result.code];
        return c.json({ Error: result.code, message: missing.message }, missing.status);
      }
      return c.json(
        { Error: errorCodes.viewAsReadOnly, message: licencePageKeyMessages.viewAsReadOnly },
        403,
      );
    });

    return app;
  },
);
