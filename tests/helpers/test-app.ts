import { parseEnv, type Env } from '#server/env.ts';
import { buildApp, type BuildAppOptions } from '#server/app.ts';
import type { AppDeps } from '#server/deps.ts';
import { createLogger } from '#server/logger.ts';
import { assembleDeps } from '#server/runtime.ts';
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
  // The server's own assembly (server/runtime.ts), with the test's clock and a fixed secret.
  // Local payment provider unless the test sets STRIPE_SECRET_KEY (then STRIPE_API_BASE_URL);
  // no workers run: tests deliver the outbox and flush rate limits themselves.
  const deps = await assembleDeps({
    env,
    database,
    logger,
    clock: () => now,
    secretKey: 'test-secret-key-test-secret-key-0123456789',
    wakeOutbox: () => undefined,
  });
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
