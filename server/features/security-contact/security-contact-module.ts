import { defineDomain } from '#server/platform/domain/define-domain.ts';
import { defineRoutes } from '#server/platform/api-doc/define-route.ts';
import { securityContactRoutes } from './security-contact-routes.ts';

/** /.well-known/security.txt. */
export const securityContactDomain = defineDomain({
  name: 'security-contact',
  routes: [defineRoutes([], securityContactRoutes)],
});
