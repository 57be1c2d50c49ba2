import { Hono } from 'hono';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { databaseTargets } from '#tests/support/databases.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { rateLimitCounters } from '../db/schema.ts';
import { decideRateLimits, enforceRateLimits, type RateLimitHit } from './enforce-rate-limits.ts';
import { createRateLimiter, type RateLimiter, type RateLimitRule } from './rate-limiter.ts';

const client: RateLimitRule = { name: 'test:client', limit: 2, windowSeconds: 60 };
const shared: RateLimitRule = { name: 'test:shared', limit: 5, windowSeconds: 3600 };

// The limiter is tested on both databases beside it; here the database only holds its counters.
const pglite = databaseTargets.find((target) => target.name === 'pglite');

describe('one rate-limit entry point', () => {
  let handle: DatabaseHandle;
  let limiter: RateLimiter;
  const now = new Date('2026-03-02T09:00:30Z');

  beforeAll(async () => {
    if (!pglite) throw new Error('no PGlite target');
    handle = await pglite.open();
  });
  afterAll(() => handle.close());
  beforeEach(async () => {
    await handle.db.delete(rateLimitCounters);
    limiter = createRateLimiter({ db: handle.db, clock: () => now, secretKey: 'x'.repeat(32) });
  });

  const hits = (subject: string): RateLimitHit[] => [
    { rule: client, subject },
    { rule: shared, subject: 'all' },
  ];

  it('counts the rules in order; a refused rule stops the count, so later budgets stay whole', async () => {
    expect(await decideRateLimits(limiter, hits('a'))).toEqual({
      headers: {
        'X-RateLimit-Limit': '2',
        'X-RateLimit-Remaining': '1',
        'X-RateLimit-Reset': '30',
      },
      retryAfterSeconds: undefined,
    });
    await decideRateLimits(limiter, hits('a'));
    for (let n = 0; n < 5; n++) {
      expect(await decideRateLimits(limiter, hits('a'))).toMatchObject({ retryAfterSeconds: 30 });
    }
    // Client a's refusals spent nothing of the shared budget: 3 of its 5 are left for b.
    const other = await decideRateLimits(limiter, [{ rule: shared, subject: 'all' }]);
    expect(other.headers['X-RateLimit-Remaining']).toBe('2');
  });

  async function answer(pacing: boolean): Promise<Response> {
    const app = new Hono().post('/', async (c) => {
      const limited = await enforceRateLimits(c, limiter, hits('route'), { pacing });
      return limited ?? c.body(null, 204);
    });
    return app.request('/', { method: 'POST' });
  }

  it('answers the one 429: the error body and Retry-After; X-RateLimit-* only when pacing', async () => {
    const admitted = await answer(true);
    expect(admitted.status).toBe(204);
    expect(admitted.headers.get('X-RateLimit-Remaining')).toBe('1');
    const quiet = await answer(false);
    expect(quiet.status).toBe(204);
    expect(quiet.headers.get('X-RateLimit-Remaining')).toBeNull();

    for (const pacing of [true, false]) {
      const refused = await answer(pacing);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('Retry-After')).toBe('30');
      expect(refused.headers.get('X-RateLimit-Remaining')).toBe(pacing ? '0' : null);
      expect(await refused.json()).toEqual({
        Error: 'TooManyRequests',
        message: 'Too many requests. Please try again in 1 minute.',
      });
    }
  });
});
