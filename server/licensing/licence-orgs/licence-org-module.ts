import { defineDomain } from '#server/platform/domain/define-domain.ts';
import { releaseOrgRoutes } from './release-org-routes.ts';

/** Releasing an org from a licence's quota (decision 228); operators use `licences release-org`. */
export const licenceOrgDomain = defineDomain({
  name: 'licence-orgs',
  routes: [releaseOrgRoutes],
});
