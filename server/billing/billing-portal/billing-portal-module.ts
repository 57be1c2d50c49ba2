import { defineDomain } from '#server/platform/domain/define-domain.ts';
import { billingPortalRoutes } from './billing-portal-routes.ts';

/** The e-mailed link to the billing portal. */
export const billingPortalDomain = defineDomain({
  name: 'billing-portal',
  routes: [billingPortalRoutes],
});
