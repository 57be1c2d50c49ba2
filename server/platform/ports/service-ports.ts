import type { DatabaseHandle } from '../db/client.ts';
import type { InstanceRegistry } from '../instances/instance-registry.ts';
import type { Logger } from '../logger.ts';
import type { RateLimiter } from '../rate-limit/rate-limiter.ts';

/**
 * What every domain's routes and services may use of the running service (decision 176). Each
 * layer widens it with what it owns (`LicensingPorts`, `BillingPorts`, `FeaturePorts`); the
 * composition's `AppDeps` extends the widest, so the compiler checks that what the runtime
 * assembles gives every layer what it names — and no layer imports the composition.
 */
export interface ServicePorts {
  env: {
    PUBLIC_BASE_URL: string;
    ACCOUNT_API_URL?: string | undefined;
  };
  database: DatabaseHandle;
  logger: Logger;
  /** The current time; tests inject a fixed or advancing clock. */
  clock: () => Date;
  /** Keyed-hash and token-signing secret (from SECRET_KEY or generated once and kept in the database). */
  secretKey: string;
  /** The process's one rate limiter: counts in memory, shared through the database (decision 085). */
  rateLimiter: RateLimiter;
  /** This process in the registry of live instances (decision 195); its heartbeat is a job. */
  instances: InstanceRegistry;
  /** Asks the e-mail outbox job to deliver soon (called after an e-mail was queued). */
  wakeOutbox: () => void;
}
