import type { LicensingPorts } from '#server/licensing/licensing-ports.ts';
import { defineDomain } from '#server/platform/domain/define-domain.ts';
import { licenceValidationRoutes } from './licence-validation-routes.ts';
import { validationTallyJob } from './validation-tally.ts';

/** The CLI's licence check: the machine hot path, and its count per day (decision 244). */
export const licenceValidationDomain = defineDomain<LicensingPorts, { deps: LicensingPorts }>({
  name: 'licence-validation',
  hotPathRoutes: [licenceValidationRoutes],
  jobs: ({ deps }) => [validationTallyJob(deps.database.db, deps.validationTally, deps.logger)],
});
