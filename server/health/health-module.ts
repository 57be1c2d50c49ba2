import { defineRoutes } from '../platform/api-doc/define-route.ts';
import { defineDomain } from '../platform/domain/define-domain.ts';
import { healthRoutes } from './health-routes.ts';

/** /healthz and /readyz. */
export const healthDomain = defineDomain({
  name: 'health',
  routes: [defineRoutes([], healthRoutes)],
});
