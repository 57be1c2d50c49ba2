import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app.ts';
import { rateLimitCounters } from '#server/platform/db/schema.ts';
import { parseEnv } from '#server/env.ts';
import { createLogger } from '#server/platform/logger.ts';
import { createRuntime, type Runtime } from '#server/runtime.ts';
import { csrfHeaders } from '#tests/support/test-app.ts';

/** The runtime as `server/main.ts` runs it: stopping the workers writes the counted hits. */
describe('rate-limit counts at shutdown', () => {
  let runtime: Runtime;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-rate-limit-'));
    const env = parseEnv({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    runtime = await createRuntime(env, createLogger('silent'));
  });
  afterAll(async () => {
    await runtime.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('has every form request counted in the database once the workers have stopped, and no validation', async () => {
    const stopWorkers = runtime.startWorkers();
    const app = buildApp(runtime.deps);
    for (let n = 0; n < 7; n++) {
      const res = await app.request('/account/v1/licenses/validate', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '203.0.113.80' },
        body: JSON.stringify({
          licenseKey: 'ORGS-0000-0000-0000-0000-0000-0000-0000',
          productId: 'orgsmith-cli',
        }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(600 - n - 1));
    }
    // Validation is counted in memory only (decision 238): nothing reached the database.
    expect(await runtime.deps.database.db.select().from(rateLimitCounters)).toEqual([]);
    for (let n = 0; n < 3; n++) {
      const res = await app.request('/api/submitContactForm', {
        method: 'POST',
        headers: {
          ...csrfHeaders(),
          'Content-Type': 'application/json',
          'X-Forwarded-For': '203.0.113.80',
        },
        body: JSON.stringify({ name: 'Rita', emailAddress: 'rita@example.com', message: 'Hi' }),
      });
      expect(res.status).toBe(204);
    }
    // Whatever the once-a-second flush has not written yet is written by the stopper.
    await stopWorkers();
    const rows = await runtime.deps.database.db.select().from(rateLimitCounters);
    // The contact form's two exact limits, per client address and per mailbox.
    expect(rows.map((row) => row.hits)).toEqual([3, 3]);
  });
});
