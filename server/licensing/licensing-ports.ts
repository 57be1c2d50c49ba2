import type { ServicePorts } from '#server/platform/ports/service-ports.ts';
import type { ValidationCode } from './licences/check-licence.ts';
import type { LicenceSigningKey } from './licence-certificates/licence-signing-key.ts';
import type { ReleaseSigningKey } from './releases/release-signing-key.ts';
import type { ValidationTally } from './licence-validation/validation-tally.ts';

/** What licensing's routes and services use of the running service (decision 176). */
export interface LicensingPorts extends ServicePorts {
  env: ServicePorts['env'] & {
    DOWNLOAD_BASE_URL: string;
    RELEASE_SIGNING_KEY?: string | undefined;
    LICENSE_VALIDATION_RATE_LIMIT: number;
    LICENSE_VALIDATION_CACHE_SECONDS: number;
  };
  /** Ed25519 key that signs licence certificates (LICENSE_SIGNING_KEY or generated once, kept in the database). */
  licenceSigningKey: LicenceSigningKey;
  /** Ed25519 key that signs releases' SHA256SUMS (RELEASE_SIGNING_KEY or generated once, kept in the database). */
  releaseSigningKey: ReleaseSigningKey;
  /** Counts each validation answer by code (`/metrics`). */
  metrics: { licenceValidated(code: ValidationCode): void };
  /** Counts each validation answer by day, added to `validation_days` once a minute (decision 244). */
  validationTally: ValidationTally;
}
