import { mapRouteDeps } from '../api-doc/define-route.ts';
import { defineDomain } from '../domain/define-domain.ts';
import { csrfTokenRoutes } from './csrf.ts';

/** The CSRF token of the site's forms (the check itself is app-wide middleware). */
export const csrfDomain = defineDomain({
  name: 'csrf',
  routes: [
    mapRouteDeps(csrfTokenRoutes, (deps: { env: { PUBLIC_BASE_URL: string } }) => ({
      secureCookie: deps.env.PUBLIC_BASE_URL.startsWith('https:'),
    })),
  ],
});
