import { defineDomain } from '#server/platform/domain/define-domain.ts';
import { licenceValidationRoutes } from './licence-validation-routes.ts';

/** The CLI's licence check: the machine hot path. */
export const licenceValidationDomain = defineDomain({
  name: 'licence-validation',
  hotPathRoutes: [licenceValidationRoutes],
});
