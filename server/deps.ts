import type { DatabaseHandle } from './platform/db/client.ts';
import type { Env } from './env.ts';
import type { LicenceSigningKey } from './licensing/licence-certificates/licence-signing-key.ts';
import type { Logger } from './platform/logger.ts';
import type { ReleaseSigningKey } from './licensing/releases/release-signing-key.ts';
import type { ServiceMetrics } from './metrics/service-metrics.ts';
import type { PaymentProvider } from './billing/payments/payment-provider.ts';
import type { RateLimiter } from './platform/rate-limit/rate-limiter.ts';

/** Everything the app needs from outside, passed in explicitly (tests pass their own). */
export interface AppDeps {
  env: Env;
  database: DatabaseHandle;
  logger: Logger;
  /** The current time; tests inject a fixed or advancing clock. */
  clock: () => Date;
  /** Keyed-hash and token-signing secret (from SECRET_KEY or generated once and kept in the database). */
  secretKey: string;
  /** Ed25519 key that signs licence certificates (LICENSE_SIGNING_KEY or generated once, kept in the database). */
  licenceSigningKey: LicenceSigningKey;
  /** Ed25519 key that signs releases' SHA256SUMS (RELEASE_SIGNING_KEY or generated once, kept in the database). */
  releaseSigningKey: ReleaseSigningKey;
  /** The card payment provider (Stripe or the built-in local provider). */
  payments: PaymentProvider;
  /** The process's one rate limiter: counts in memory, shared through the database (decision 085). */
  rateLimiter: RateLimiter;
  /** Asks the e-mail outbox worker to deliver soon (called after an e-mail was queued). */
  wakeOutbox: () => void;
  /** What `/metrics` reports; `metricsOff` unless METRICS_TOKEN or METRICS_PORT is set (decision 131). */
  metrics: ServiceMetrics;
  /** True once the process was told to stop: `/readyz` answers 503 while requests drain (decision 139). */
  draining?: () => boolean;
}
