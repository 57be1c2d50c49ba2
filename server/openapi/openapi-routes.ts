import { Hono } from 'hono';
import type { AppDeps } from '../deps.ts';
import type { AppEnv } from '../http/types.ts';
import { apiDocs, OPENAPI_PATH, securitySchemes } from './api-docs.ts';
import { buildOpenApiDocument } from './build-openapi-document.ts';
import { unexpectedQueryError } from './common-errors.ts';

export interface OpenApiRouteOptions {
  isCsrfExempt: (path: string) => boolean;
}

/** Serves the OpenAPI 3.1 document, built on first request from the domains' endpoint docs. */
export function openApiRoutes(deps: AppDeps, options: OpenApiRouteOptions): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  let document: string | undefined;
  app.get(OPENAPI_PATH, (c) => {
    const queryError = unexpectedQueryError(c.req.query());
    if (queryError) return c.json(queryError, 400);
    document ??= JSON.stringify(
      buildOpenApiDocument(apiDocs, {
        info: {
          title: 'Orgsmith account service',
          version: '1.0.0',
          description:
            'Trial licences, checkout, subscriptions, licence validation for the CLI and the release catalog. Error bodies carry `{"Error": "<Code>"}`.',
        },
        accountBaseUrl: deps.env.ACCOUNT_API_URL ?? deps.env.PUBLIC_BASE_URL,
        siteBaseUrl: deps.env.PUBLIC_BASE_URL,
        securitySchemes,
        isCsrfExempt: options.isCsrfExempt,
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
}
