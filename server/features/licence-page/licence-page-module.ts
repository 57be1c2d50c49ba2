import { defineDomain } from '#server/platform/domain/define-domain.ts';
import { licencePageRoutes } from './licence-page-routes.ts';

/** The customers' licence page (decision 229): sign-in by e-mailed code or link, sessions, release. */
export const licencePageDomain = defineDomain({
  name: 'licence-page',
  routes: [licencePageRoutes],
});
