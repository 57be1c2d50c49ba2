import { parseEnv, type Env } from '#server/env.ts';
import { buildApp, type BuildAppOptions } from '#server/app.ts';
import { buildConsoleApp } from '#server/console-app.ts';
import type { AppDeps } from '#server/deps.ts';
import { createLogger } from '#server/platform/logger.ts';
import { assembleDeps } from '#server/runtime.ts';
import type { TestDatabaseTarget } from './databases.ts';
import { DocumentedAnswers } from './documented-answers.ts';
import { startViesFake, type ViesFake } from './vies-fake.ts';
import { appendFileSync } from 'node:fs';

export interface TestApp {
  app: ReturnType<typeof buildApp>;
  /** The operator console's app, as its own listener serves it (decision 226). */
  consoleApp: ReturnType<typeof buildConsoleApp>;
  deps: AppDeps;
  /** The VIES fake `VIES_URL` points at, unless the test set VIES_URL itself. */
  vies: ViesFake | undefined;
  /** Moves the injected clock. */
  setNow(date: Date): void;
  close(): Promise<void>;
}

/** Builds the app in-process on a fresh database of the given target; requests go through `app.request`. */
export async function createTestApp(
  target: TestDatabaseTarget,
  overrides: { env?: Record<string, string>; options?: BuildAppOptions; now?: Date } = {},
): Promise<TestApp> {
  // VIES is never asked for real in tests: a fake of it answers (decision 210).
  const vies = overrides.env?.VIES_URL ? undefined : await startViesFake();
  const env: Env = parseEnv({
    NODE_ENV: 'test',
    PUBLIC_BASE_URL: 'http://localhost:3000',
    LOG_LEVEL: 'silent',
    // Invoice orders go through as before approvals existed (decision 230); the approval tests
    // set the production defaults back.
    INVOICE_APPROVAL_FIRST_ORDER: 'trust',
    INVOICE_APPROVAL_ABOVE: '100000000',
    ...(vies ? { VIES_URL: vies.url } : {}),
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
  const app = buildApp(deps, overrides.options);
  checkAnswersAgainstDocument(app);
  return {
    app,
    consoleApp: buildConsoleApp(deps),
    deps,
    vies,
    setNow(date) {
      now = date;
    },
    async close() {
      await database.close();
      await vies?.close();
    },
  };
}

/** Headers that pass the CSRF check, as the site's fetch wrapper would send them. */
export function csrfHeaders(token = 'test-csrf-token'): Record<string, string> {
  return { Cookie: `XSRF-TOKEN=${token}`, 'X-XSRF-TOKEN': token };
}

let documentedAnswers: DocumentedAnswers | undefined;

/** Every answer `app.request` gives is checked against the OpenAPI document (see DocumentedAnswers). */
function checkAnswersAgainstDocument(app: TestApp['app']): void {
  const request = app.request;
  app.request = async (input, init, ...rest) => {
    const res = await request(input, init, ...rest);
    const url =
      input instanceof Request ? new URL(input.url) : new URL(String(input), 'http://localhost');
    const method = (
      input instanceof Request ? input.method : (init?.method ?? 'GET')
    ).toUpperCase();
    documentedAnswers ??= new DocumentedAnswers();
    const problem = await documentedAnswers.problemWith(method, url, res);
    if (problem && process.env.DOCUMENTED_ANSWERS_REPORT) {
      appendFileSync(process.env.DOCUMENTED_ANSWERS_REPORT, `${problem}\n`);
    } else if (problem) throw new Error(problem);
    return res;
  };
}
