import { Hono } from 'hono';
import { z } from 'zod';
import type { Env } from '../env.ts';
import type { AppEnv } from '../platform/http/types.ts';
import {
  invalidRequestErrorSchema,
  unexpectedQueryError,
} from '../platform/api-doc/common-errors.ts';
import { defineRoute, defineRoutes } from '../platform/api-doc/define-route.ts';
import { OPENAPI_PATH } from './api-reference-paths.ts';

const getOpenApiDocumentRoute = defineRoute({
  method: 'get',
  path: OPENAPI_PATH,
  auth: 'public',
  operationId: 'getOpenApiDocument',
  tag: 'Reference',
  summary: 'This OpenAPI 3.1 document',
  responses: {
    200: { description: 'The document.', schema: z.record(z.string(), z.unknown()) },
    400: { description: 'Query parameters were sent.', schema: invalidRequestErrorSchema },
  },
});

export interface OpenApiRouteDeps {
  env: Pick<Env, 'ACCOUNT_API_URL' | 'PUBLIC_BASE_URL'>;
  /** The document of every endpoint; given by the composition, which knows them all. */
  buildDocument: (urls: { accountBaseUrl: string; siteBaseUrl: string }) => unknown;
}

/** Serves the OpenAPI 3.1 document, built on first request from the domains' route definitions. */
export const openApiRoutes = defineRoutes(
  [getOpenApiDocumentRoute],
  ({ env, buildDocument }: OpenApiRouteDeps) => {
    const app = new Hono<AppEnv>();
    let document: string | undefined;
    getOpenApiDocumentRoute.handle(app, (c) => {
      const queryError = unexpectedQueryError(c.req.query());
      if (queryError) return c.json(queryError, 400);
      document ??= JSON.stringify(
        buildDocument({
          accountBaseUrl: env.ACCOUNT_API_URL ?? env.PUBLIC_BASE_URL,
          siteBaseUrl: env.PUBLIC_BASE_URL,
        }),
      );
      c.header('Cache-Control', 'public, max-age=300');
      // Its length lets the compression middleware see it is worth compressing (decision 081).
      return c.body(document, 200, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': String(Buffer.byteLength(document)),
      });
    });
    return app;
  },
);
