import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitRules } from '#server/platform/rate-limit/rate-limit-rules.ts';
import { freshIp } from '../api/account-support.ts';
import { databaseTargets } from '../support/databases.ts';
import { createLicence, postJson } from '../support/licensing.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

/**
 * Issue 25, smaller item 5: the per-licence limit of the access-token endpoints was keyed on the
 * key as typed, so the same key without dashes, lower-cased or with spaces started a fresh
 * budget. It is keyed on the key's hash now, as validation's is.
 */
const { limit } = rateLimitRules.accessTokensPerLicence;

/** One key, spelt the ways the parser accepts. */
function spellings(key: string): string[] {
  return [key, key.replaceAll('-', ''), key.toLowerCase(), key.replaceAll('-', ' '), ` ${key} `];
}

describe.each(databaseTargets)('access-token limits per licence on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(() => t.close());

  it(`gives one licence ${limit} requests an hour however its key is spelt`, async () => {
    const { key } = await createLicence(t);
    const variants = spellings(key);
    const statuses: number[] = [];
    for (let n = 0; n <= limit; n++) {
      const response = await postJson(
        t,
        '/account/v1/access-tokens/list',
        { licenseKey: variants[n % variants.length] },
        { 'X-Forwarded-For': freshIp() },
      );
      statuses.push(response.status);
    }
    expect(statuses.slice(0, limit).every((status) => status === 200)).toBe(true);
    expect(statuses[limit]).toBe(429);

    // Another licence has a budget of its own.
    const other = await createLicence(t);
    const response = await postJson(
      t,
      '/account/v1/access-tokens/list',
      { licenseKey: other.key.replaceAll('-', '').toLowerCase() },
      { 'X-Forwarded-For': freshIp() },
    );
    expect(response.status).toBe(200);
  });
});
