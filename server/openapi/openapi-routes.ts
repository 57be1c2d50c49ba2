import { Hono } from 'hono';
import type { AppDeps } from '../deps.ts';
import type { AppEnv } from '../platform/http/types.ts';
import { buildApiDocument, OPENAPI_PATH } from './api-docs.ts';
import { unexpectedQueryError } from '../platform/api-doc/common-errors.ts';

/** Serves the OpenAPI 3.1 document, built on first request from the domains' endpoint docs. */
export function openApiRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  let document: string | undefined;
  app.get(OPENAPI_PATH, (c) => {
    const queryError = unexpectedQueryError(c.req.query());
    if (queryError) return c.json(queryError, 400);
    document ??= JSON.stringify(
      buildApiDocument({
        accountBaseUrl: deps.env.ACCOUNT_API_URL ?? deps.env.PUBLIC_BASE_URL,
        siteBaseUrl: deps.env.PUBLIC_BASE_URL,
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
