import { defineDomain } from '#server/platform/domain/define-domain.ts';
import { checkoutRoutes } from './checkout-routes.ts';

/** Checkout sessions for a plan. */
export const checkoutDomain = defineDomain({
  name: 'checkout',
  routes: [checkoutRoutes],
});
