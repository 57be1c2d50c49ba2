import { defineDomain } from '#server/platform/domain/define-domain.ts';
import { licencePageConsoleRoutes } from './licence-page-console-routes.ts';
import { licencePageRoutes } from './licence-page-routes.ts';

/** The customers' licence page (decision 229): sign-in by e-mailed code or link, sessions, release;
 * keys, tokens, change requests and the console's view as customer (decision 236). */
export const licencePageDomain = defineDomain({
  name: 'licence-page',
  routes: [licencePageRoutes],
  consoleRoutes: [licencePageConsoleRoutes],
});
