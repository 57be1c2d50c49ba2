import type { AppDeps } from '../deps.ts';
import { mapRouteDeps } from '../platform/api-doc/define-route.ts';
import { defineDomain } from '../platform/domain/define-domain.ts';
import { securityHeaderOptionsOf } from '../platform/http/security-headers.ts';
import { apiReferenceRoutes } from './api-reference-routes.ts';
import { openApiRoutes, type OpenApiRouteDeps } from './openapi-routes.ts';

/**
 * The OpenAPI document and its reference page. The document covers every domain, so the list of
 * domains (`server/domains.ts`) hands its builder in.
 */
export function referenceDomain(buildDocument: OpenApiRouteDeps['buildDocument']) {
  return defineDomain({
    name: 'reference',
    routes: [
      mapRouteDeps(openApiRoutes, (deps: AppDeps) => ({ env: deps.env, buildDocument })),
      mapRouteDeps(apiReferenceRoutes, (deps: AppDeps) => securityHeaderOptionsOf(deps.env)),
    ],
  });
}
