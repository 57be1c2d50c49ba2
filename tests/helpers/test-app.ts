import { parseEnv, type Env } from '#server/env.ts';
import { buildApp, type BuildAppOptions } from '#server/app.ts';
import type { AppDeps } from '#server/deps.ts';
import { loadLicenceSigningKey } from '#server/licence-certificates/signing-key.ts';
import { createLogger } from '#server/logger.ts';
import { createPaymentProvider } from '#server/payments/create-payment-provider.ts';
import { createRateLimiter } from '#server/rate-limit/rate-limiter.ts';
import type { TestDatabaseTarget } from './databases.ts';

export interface TestApp {
  app: ReturnType<typeof buildApp>;
  deps: AppDeps;
  /** Moves the injected clock. */
  setNow(date: Date): void;
  close(): Promise<void>;
}

/** Builds the app in-process on a fresh database of the given target; requests go through `app.request`. */
export async function createTestApp(
  target: TestDatabaseTarget,
  overrides: { env?: Record<string, string>; options?: BuildAppOptions; now?: Date } = {},
): Promise<TestApp> {
  const env: Env = parseEnv({
    NODE_ENV: 'test',
    PUBLIC_BASE_URL: 'http://localhost:3000',
    LOG_LEVEL: 'silent',
    ...overrides.env,
  });
  const database = await target.open();
  let now = overrides.now ?? new Date('2026-01-15T10:00:00Z');
  const logger = createLogger(env.LOG_LEVEL);
  const secretKey = 'test-secret-key-test-secret-key-0123456789';
  const deps: AppDeps = {
    env,
    database,
    logger,
    clock: () => now,
    secretKey,
    licenceSigningKey: await loadLicenceSigningKey(database.db, env.LICENSE_SIGNING_KEY, now),
    // Local provider unless the test sets STRIPE_SECRET_KEY (then usually STRIPE_API_BASE_URL).
    payments: createPaymentProvider({ env, db: database.db, clock: () => now, logger }),
    // No flusher runs: hits are written when the database must decide; tests may call flush().
    rateLimiter: createRateLimiter({ db: database.db, clock: () => now, secretKey }),
    // Tests deliver the outbox themselves (createOutboxDelivery), so there is no worker to wake.
    wakeOutbox: () => undefined,
  };
  return {
    app: buildApp(deps, overrides.options),
    deps,
    setNow(date) {
      now = date;
    },
    close: () => database.close(),
  };
}

/** Headers that pass the CSRF check, as the site's fetch wrapper would send them. */
export function csrfHeaders(token = 'test-csrf-token'): Record<string, string> {
  return { Cookie: `XSRF-TOKEN=${token}`, 'X-XSRF-TOKEN': token };
}
