import type { AppDeps } from './deps.ts';
import type { Env } from './env.ts';
import { createPaymentProvider } from './billing/payments/create-payment-provider.ts';
import { loadLicenceSigningKey } from './licensing/licence-certificates/signing-key.ts';
import { loadReleaseSigningKey } from './licensing/releases/release-signing-key.ts';
import { createValidationTally } from './licensing/licence-validation/validation-tally.ts';
import { metricsEnabled } from './metrics/metrics-access.ts';
import { createServiceMetrics, metricsOff } from './metrics/service-metrics.ts';
import type { DatabaseHandle } from './platform/db/client.ts';
import { createInstanceRegistry } from './platform/instances/instance-registry.ts';
import type { Logger } from './platform/logger.ts';
import { createRateLimiter } from './platform/rate-limit/rate-limiter.ts';

/**
 * The app's dependencies from an open database: the one assembly the server, the admin commands (decision 232), the
 * tests and the benchmarks share (the payment provider, the rate limiter and the signing key follow `env`).
 */
export async function assembleDeps(options: {
  env: Env;
  database: DatabaseHandle;
  logger: Logger;
  clock: () => Date;
  secretKey: string;
  /** Starts an outbox round now (after an e-mail was queued); tests deliver it themselves. */
  wakeOutbox: () => void;
}): Promise<AppDeps> {
  const { env, database, logger, clock, secretKey } = options;
  const instances = createInstanceRegistry({ db: database.db, clock });
  const metrics = metricsEnabled(env)
    ? createServiceMetrics({
        database,
        clock,
        // Instances sharing PostgreSQL report its cluster-wide gauges once (decision 240).
        ...(database.kind === 'postgres' ? { cluster: instances } : {}),
      })
    : metricsOff;
  return {
    env,
    database,
    logger,
    clock,
    secretKey,
    licenceSigningKey: await loadLicenceSigningKey(database.db, env.LICENSE_SIGNING_KEY, clock()),
    releaseSigningKey: await loadReleaseSigningKey(database.db, env.RELEASE_SIGNING_KEY, clock()),
    payments: await createPaymentProvider({ env, db: database.db, clock, logger }),
    rateLimiter: createRateLimiter({
      db: database.db,
      clock,
      secretKey,
      onRefusal: (rule) => metrics.rateLimitRefused(rule.name),
      // Shared by the live instances on PostgreSQL; the embedded database has one (decision 195).
      ...(database.kind === 'postgres' ? { sharers: instances } : {}),
    }),
    instances,
    validationTally: createValidationTally(clock),
    wakeOutbox: options.wakeOutbox,
    metrics,
  };
}
