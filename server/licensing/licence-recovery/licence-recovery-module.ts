import { defineDomain } from '#server/platform/domain/define-domain.ts';
import { licenceRecoveryRoutes } from './licence-recovery-routes.ts';

/** Replacing a lost licence key through an e-mailed link. */
export const licenceRecoveryDomain = defineDomain({
  name: 'licence-recovery',
  routes: [licenceRecoveryRoutes],
});
