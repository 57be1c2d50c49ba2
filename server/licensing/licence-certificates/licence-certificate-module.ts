import type { LicensingPorts } from '#server/licensing/licensing-ports.ts';
import { defineDomain } from '#server/platform/domain/define-domain.ts';
import { signingKeyUseJob } from './key-set.ts';
import { licenceCertificateRoutes } from './licence-certificate-routes.ts';

/** The public keys of licence certificates, and the record of the signing key's use. */
export const licenceCertificateDomain = defineDomain<LicensingPorts, { deps: LicensingPorts }>({
  name: 'licence-certificates',
  routes: [licenceCertificateRoutes],
  jobs: ({ deps }) => [signingKeyUseJob(deps.database.db, deps.licenceSigningKey, deps.clock)],
});
