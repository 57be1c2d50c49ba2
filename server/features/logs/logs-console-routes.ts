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
import { currentAuditContext } from '#server/platform/audit/audit-context.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import type { FeaturePorts } from '../feature-ports.ts';
import {
  emailActionBodySchema,
  emailLogQuerySchema,
  listEmails,
  resendEmail,
  retryEmail,
  type EmailActionResult,
} from './email-log.ts';
import { eventLogQuerySchema, listPaymentEvents } from './payment-event-log-repository.ts';

const tag = 'Operator console';
const denied = consoleDeniedResponses;

const eventsRoute = defineRoute({
  method: 'get',
  path: `${CONSOLE_API}/events`,
  auth: { permission: 'billing.read' },
  operationId: 'listPaymentEvents',
  tag,
  summary: 'Stripe events received and what each did, newest first (decision 235)',
  request: { query: eventLogQuerySchema },
  responses: {
    200: {
      description: 'A page of events; `next` is the `before` of the following page.',
      schema: z.object({ events: z.array(z.unknown()), next: z.number().nullable() }),
    },
    400: { description: 'A filter out of range.', schema: invalidRequestErrorSchema },
    ...denied,
  },
});

const emailsRoute = defineRoute({
  method: 'get',
  path: `${CONSOLE_API}/emails`,
  auth: { permission: 'billing.read' },
  operationId: 'listEmails',
  tag,
  summary: 'Every e-mail sent, failed or waiting, newest first (decision 235)',
  request: { query: emailLogQuerySchema },
  responses: {
    200: {
      description: 'A page of e-mails; `next` is the `before` of the following page.',
      schema: z.object({ emails: z.array(z.unknown()), next: z.number().nullable() }),
    },
    400: { description: 'A filter out of range.', schema: invalidRequestErrorSchema },
    ...denied,
  },
});

const actionResponses = {
  200: { description: 'The e-mail now queued.', schema: z.object({ email: z.unknown() }) },
  400: { description: 'No reason.', schema: invalidRequestErrorSchema },
  404: { description: 'EmailNotFound.', schema: errorBodySchema },
  409: {
    description: 'NotFailed, NotDelivered or ContentNotKept: not this action for this e-mail.',
    schema: errorBodySchema,
  },
  ...denied,
};

const retryRoute = defineRoute({
  method: 'post',
  path: `${CONSOLE_API}/emails/:id/retry`,
  auth: { permission: 'email.resend' },
  operationId: 'retryEmail',
  tag,
  summary: 'Send a failed e-mail again now, with a reason the audit log keeps',
  request: { body: emailActionBodySchema },
  responses: actionResponses,
});

const resendRoute = defineRoute({
  method: 'post',
  path: `${CONSOLE_API}/emails/:id/resend`,
  auth: { permission: 'email.resend' },
  operationId: 'resendEmail',
  tag,
  summary: 'Resend a delivered e-mail (same content, a new message), with a reason',
  request: { body: emailActionBodySchema },
  responses: {
    ...actionResponses,
    429: {
      description: 'ResendLimit: three resends to this address in the last 24 hours.',
      schema: errorBodySchema,
    },
  },
});

const statusOf = {
  EmailNotFound: 404,
  NotFailed: 409,
  NotDelivered: 409,
  ContentNotKept: 409,
  ResendLimit: 429,
} as const;

/** The console's event and e-mail logs, and the retry and resend of an e-mail (decision 235). */
export const logsConsoleRoutes = defineRoutes(
  [eventsRoute, emailsRoute, retryRoute, resendRoute],
  (deps: FeaturePorts) => {
    const app = new Hono<AppEnv>();
    const db = deps.database.db;

    eventsRoute.handle(app, async (c, input) => {
      const query = input.query();
      if (!query.ok) return query.response;
      return c.json(await listPaymentEvents(db, query.value));
    });

    emailsRoute.handle(app, async (c, input) => {
      const query = input.query();
      if (!query.ok) return query.response;
      return c.json(await listEmails(db, query.value, deps.clock()));
    });

    const answer = (c: Context<AppEnv>, result: EmailActionResult) => {
      if (!result.ok) {
        return c.json({ Error: result.code, message: result.message }, statusOf[result.code]);
      }
      deps.wakeOutbox();
      return c.json({ email: result.email });
    };

    retryRoute.handle(app, noQueryParameters, async (c, input) => {
      const body = await input.body();
      if (!body.ok) return body.response;
      const context = currentAuditContext();
      if (!context) throw new Error('a console action ran outside an audit context');
      const result = await retryEmail(
        { db, clock: deps.clock },
        context,
        c.req.param('id') ?? '',
        body.value.reason,
      );
      return answer(c, result);
    });

    resendRoute.handle(app, noQueryParameters, async (c, input) => {
      const body = await input.body();
      if (!body.ok) return body.response;
      const context = currentAuditContext();
      if (!context) throw new Error('a console action ran outside an audit context');
      const result = await resendEmail(
        { db, clock: deps.clock, secretKey: deps.secretKey },
        context,
        c.req.param('id') ?? '',
        body.value.reason,
      );
      return answer(c, result);
    });

    return app;
  },
);
