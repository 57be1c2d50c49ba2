import { asc } from 'drizzle-orm';
import { emailOutbox } from '#server/platform/db/schema.ts';
import { csrfHeaders, type TestApp } from '../support/test-app.ts';

/** Shared by the account-service API tests: requests as the site sends them, and outbox reads. */

let ipCounter = 0;
/** A fresh documentation-range address per call, so rate limits of one test never leak into another. */
export function freshIp(): string {
  ipCounter++;
  return `198.18.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
}

export function postJson(
  t: TestApp,
  path: string,
  body: unknown,
  options: { ip?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  return Promise.resolve(
    t.app.request(path, {
      method: 'POST',
      headers: {
        ...csrfHeaders(),
        'Content-Type': 'application/json',
        'X-Forwarded-For': options.ip ?? freshIp(),
        ...options.headers,
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
}

export function requestTrial(
  t: TestApp,
  query: Record<string, string>,
  options: { ip?: string } = {},
): Promise<Response> {
  const search = new URLSearchParams(query).toString();
  return Promise.resolve(
    t.app.request(`/account/v1/licenses/trial?${search}`, {
      method: 'POST',
      headers: { ...csrfHeaders(), 'X-Forwarded-For': options.ip ?? freshIp() },
    }),
  );
}

export function outboxRows(t: TestApp) {
  return t.deps.database.db.select().from(emailOutbox).orderBy(asc(emailOutbox.id));
}
