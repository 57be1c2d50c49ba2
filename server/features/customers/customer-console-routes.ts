import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { CONSOLE_API } from '#shared/contracts/console.ts';
import {
  licenceActionBodies,
  licenceActionPermissions,
  licenceActionSchema,
  runLicenceAction,
  type LicenceActionKind,
} from '#server/licensing/licence-support/licence-actions.ts';
import {
  consoleDeniedResponses,
  errorBodySchema,
  invalidRequestErrorSchema,
  noQueryParameters,
} from '#server/platform/api-doc/common-errors.ts';
import { paymentDocumentUrl } from '#server/billing/documents/payment-document-link.ts';
import { defineRoute, defineRoutes } from '#server/platform/api-doc/define-route.ts';
import { currentAuditContext } from '#server/platform/audit/audit-context.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import type { FeaturePorts } from '../feature-ports.ts';
import { SEARCH_MAX_LENGTH, searchCustomers } from './customer-search-repository.ts';
import { customerStory } from './customer-story.ts';

const tag = 'Operator console';
const denied = consoleDeniedResponses;

const searchRoute = defineRoute({
  method: 'get',
  path: `${CONSOLE_API}/customers`,
  auth: { permission: 'licence.read' },
  operationId: 'searchCustomers',
  tag,
  summary: 'The one search box: customers by address, key, org, number, provider id or company',
  request: { query: z.strictObject({ q: z.string().trim().min(1).max(SEARCH_MAX_LENGTH) }) },
  responses: {
    200: {
      description: 'What the text was read as, and the customers it names (decision 227).',
      schema: z.object({
        kind: z.string(),
        hits: z.array(z.object({ customer: z.string(), email: z.string(), matched: z.string() })),
      }),
    },
    400: { description: 'No text, or too long.', schema: invalidRequestErrorSchema },
    ...denied,
  },
});

const storyRoute = defineRoute({
  method: 'get',
  path: `${CONSOLE_API}/customer`,
  auth: { permission: 'licence.read' },
  operationId: 'readCustomerStory',
  tag,
  summary: "A customer's whole story, by address in any spelling",
  request: { query: z.strictObject({ address: z.email().max(254) }) },
  responses: {
    200: { description: 'Everything held about the address (decision 227).', schema: z.unknown() },
    400: { description: 'Not an e-mail address.', schema: invalidRequestErrorSchema },
    404: {
      description: 'CustomerNotFound: nothing is held about the address.',
      schema: errorBodySchema,
    },
    ...denied,
  },
});

const actionRoutes = (Object.keys(licenceActionBodies) as LicenceActionKind[]).map((kind) => ({
  kind,
  route: defineRoute({
    method: 'post',
    path: `${CONSOLE_API}/licences/:id/${kind}`,
    auth: { permission: licenceActionPermissions[kind] },
    operationId: `licenceAction_${kind.replaceAll('-', '_')}`,
    tag,
    summary: `Licence action: ${kind}, with a reason the audit log keeps`,
    request: { body: licenceActionBodies[kind] },
    responses: {
      200: {
        description: 'What it did: the licence state now, whether anything changed, a summary.',
        schema: z.object({
          licenceId: z.string(),
          state: z.string(),
          changed: z.boolean(),
          summary: z.string(),
        }),
      },
      400: {
        description: 'No reason, or a field out of range.',
        schema: invalidRequestErrorSchema,
      },
      404: {
        description: 'LicenceNotFound, TokenNotFound or OrgNotInUse.',
        schema: errorBodySchema,
      },
      409: {
        description:
          'NotATrial, NotPro or FollowsSubscription (the org count of a licence a subscription governs), or KeyChanged (try again).',
        schema: errorBodySchema,
      },
      ...denied,
    },
  }),
}));

const statusOf = {
  LicenceNotFound: 404,
  TokenNotFound: 404,
  OrgNotInUse: 404,
  NotATrial: 409,
  NotPro: 409,
  FollowsSubscription: 409,
  KeyChanged: 409,
} as const;

/** Support's console endpoints over the customers' query functions and licence actions. */
export const customerConsoleRoutes = defineRoutes(
  [searchRoute, storyRoute, ...actionRoutes.map((action) => action.route)],
  (deps: FeaturePorts) => {
    const app = new Hono<AppEnv>();
    const db = deps.database.db;

    searchRoute.handle(app, async (c, input) => {
      const query = input.query();
      if (!query.ok) return query.response;
      return c.json(await searchCustomers({ db, secretKey: deps.secretKey }, query.value.q));
    });

    storyRoute.handle(app, async (c, input) => {
      const query = input.query();
      if (!query.ok) return query.response;
      const story = await customerStory(
        { db, secretKey: deps.secretKey, clock: deps.clock },
        query.value.address,
      );
      if (!story) {
        return c.json(
          { Error: 'CustomerNotFound', message: 'Nothing is held about this address.' },
          404,
        );
      }
      // Each document opens by its signed link (decision 180), as in the customer's e-mails.
      return c.json({
        ...story,
        // The trail is the audit log's: shown to roles that may read it (a viewer may not).
        audit: c.get('operator')?.permissions.includes('audit.read') ? story.audit : null,
        documents: story.documents.map((document) => ({
          ...document,
          pdfUrl: paymentDocumentUrl(deps.env.PUBLIC_BASE_URL, deps.secretKey, document.number),
        })),
      });
    });

    for (const { kind, route } of actionRoutes) {
      route.handle(app, noQueryParameters, async (c: Context<AppEnv>, input) => {
        const body = await input.body();
        if (!body.ok) return body.response;
        const context = currentAuditContext();
        if (!context) throw new Error('a console action ran outside an audit context');
        const result = await runLicenceAction(
          {
            db,
            secretKey: deps.secretKey,
            publicBaseUrl: deps.env.PUBLIC_BASE_URL,
            accountBaseUrl: deps.env.ACCOUNT_API_URL ?? deps.env.PUBLIC_BASE_URL,
            clock: deps.clock,
          },
          context,
          c.req.param('id') ?? '',
          // The body was read with this kind's schema: the union reads it the same way.
          licenceActionSchema.parse({ kind, ...body.value }),
        );
        if (!result.ok)
          return c.json({ Error: result.code, message: result.message }, statusOf[result.code]);
        return c.json({
          licenceId: result.licence.id,
          state: result.state,
          changed: result.changed,
          summary: result.summary,
        });
      });
    }

    return app;
  },
);
