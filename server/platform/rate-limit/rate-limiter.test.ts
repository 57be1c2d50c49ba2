import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { databaseTargets } from '#tests/support/databases.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { rateLimitCounters } from '../db/schema.ts';
import { createLogger } from '../logger.ts';
import {
  createRateLimiter,
  rateLimitJobs,
  unconfirmedAllowance,
  type RateLimiter,
  type RateLimitRule,
} from './rate-limiter.ts';
import { startJobs } from '../jobs/start-jobs.ts';

const secretKey = 'rate-limiter-test-secret-0123456789abcdef';
const perMinute = (limit: number): RateLimitRule => ({
  name: `test:${limit}`,
  limit,
  windowSeconds: 60,
});

/** A small deterministic generator, so a failing interleaving can be replayed. */
function sequence(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe.each(databaseTargets)('batched rate limiter on $name', (target) => {
  let handle: DatabaseHandle;
  let now: Date;
  const clock = () => now;
  const limiter = (maxCounters?: number): RateLimiter =>
    createRateLimiter({ db: handle.db, clock, secretKey, maxCounters });

  /** Hits the database holds, per window start. */
  async function stored(): Promise<Record<string, number>> {
    const rows = await handle.db.select().from(rateLimitCounters);
    const byWindow: Record<string, number> = {};
    for (const row of rows) {
      const key = row.windowStart.toISOString();
      byWindow[key] = (byWindow[key] ?? 0) + row.hits;
    }
    return byWindow;
  }

  beforeAll(async () => {
    handle = await target.open();
  });
  afterAll(() => handle.close());
  beforeEach(async () => {
    now = new Date('2026-03-02T09:00:30Z');
    await handle.db.delete(rateLimitCounters);
  });

  it('decides the first hit of a window in the database and writes the rest in one flush', async () => {
    const rule = perMinute(1000);
    const instance = limiter();
    for (let n = 1; n <= 50; n++) {
      const decision = await instance.hit(rule, '203.0.113.7');
      expect(decision).toEqual({
        allowed: true,
        retryAfterSeconds: 30,
        limit: 1000,
        remaining: 1000 - n,
      });
    }
    expect(await stored()).toEqual({ '2026-03-02T09:00:00.000Z': 1 });
    await instance.flush();
    expect(await stored()).toEqual({ '2026-03-02T09:00:00.000Z': 50 });
    await instance.flush();
    expect(await stored()).toEqual({ '2026-03-02T09:00:00.000Z': 50 });
  });

  it('names a counter by the keyed hash of its rule and subject it has always used', async () => {
    // Stored rows outlive a deploy: the bucket must not change (decision 164).
    const rule = { name: 'trial:email', limit: 5, windowSeconds: 60 };
    await limiter().hit(rule, 'Jane@Example.com');
    const rows = await handle.db.select().from(rateLimitCounters);
    expect(rows.map((row) => row.bucket)).toEqual(['Fzunb4faFAkEJZBaYtlbpszgJ48bI1WLQ2nV98z8Zy0']);
  });

  it('is exact in one instance, with and without an allowance, also for concurrent hits', async () => {
    for (const limit of [5, 30]) {
      const rule = perMinute(limit);
      const instance = limiter();
      const sequential = [];
      for (let n = 0; n <= limit; n++) sequential.push(await instance.hit(rule, 'sequential'));
      expect(sequential.filter((decision) => decision.allowed)).toHaveLength(limit);
      expect(sequential.at(-1)).toMatchObject({ allowed: false, remaining: 0 });
      const concurrent = await Promise.all(
        Array.from({ length: 3 * limit }, () => instance.hit(rule, 'concurrent')),
      );
      expect(concurrent.filter((decision) => decision.allowed)).toHaveLength(limit);
    }
    expect(unconfirmedAllowance(5)).toBe(0);
    expect(unconfirmedAllowance(30)).toBe(3);
  });

  it('tells every refusal with its rule, from memory and from the database alike', async () => {
    const refused: string[] = [];
    const instance = createRateLimiter({
      db: handle.db,
      clock,
      secretKey,
      onRefusal: (rule) => refused.push(rule.name),
    });
    for (const limit of [2, 30]) {
      const rule = perMinute(limit);
      for (let n = 0; n < limit + 3; n++) await instance.hit(rule, 'refusals');
    }
    expect(refused).toEqual(['test:2', 'test:2', 'test:2', 'test:30', 'test:30', 'test:30']);
  });

  it('rolls over to a fresh count when the window ends, writing each window to its own row', async () => {
    const rule = perMinute(20);
    const instance = limiter();
    for (let n = 0; n < 20; n++) expect((await instance.hit(rule, 'roll')).allowed).toBe(true);
    expect(await instance.hit(rule, 'roll')).toMatchObject({
      allowed: false,
      retryAfterSeconds: 30,
    });
    now = new Date('2026-03-02T09:01:00Z');
    expect(await instance.hit(rule, 'roll')).toEqual({
      allowed: true,
      retryAfterSeconds: 60,
      limit: 20,
      remaining: 19,
    });
    await instance.flush();
    expect(await stored()).toEqual({
      '2026-03-02T09:00:00.000Z': 21,
      '2026-03-02T09:01:00.000Z': 1,
    });
    const rows = await handle.db.select().from(rateLimitCounters);
    expect(rows.map((row) => row.expiresAt.getTime() - row.windowStart.getTime())).toEqual([
      60_000, 60_000,
    ]);
  });

  it('shares counts between two instances and admits at most one allowance over the limit', async () => {
    const rule = perMinute(100);
    const allowance = unconfirmedAllowance(rule.limit);
    for (const seed of [1, 7, 42]) {
      await handle.db.delete(rateLimitCounters);
      const instances = [limiter(), limiter()];
      const random = sequence(seed);
      let admitted = 0;
      let firstRefusal: number | undefined;
      for (let n = 0; n < 300; n++) {
        const instance = instances[random() < 0.5 ? 0 : 1];
        if (!instance) throw new Error('no instance');
        if (random() < 0.05) await instance.flush();
        const decision = await instance.hit(rule, 'shared');
        if (decision.allowed) admitted += 1;
        else firstRefusal ??= n;
      }
      // No refusal before the limit is reached; never more than (2 − 1) × allowance over it.
      expect(firstRefusal).toBeGreaterThanOrEqual(rule.limit);
      expect(admitted).toBeGreaterThanOrEqual(rule.limit);
      expect(admitted).toBeLessThanOrEqual(rule.limit + allowance);
      await Promise.all(instances.map((instance) => instance.flush()));
      expect(await stored()).toEqual({ '2026-03-02T09:00:00.000Z': 300 });
    }
  });

  it('keeps the bound when both instances are hit at once, and flushes the same rows without deadlock', async () => {
    const rule = perMinute(100);
    const [a, b] = [limiter(), limiter()];
    const subjects = ['x', 'y', 'z'];
    const decisions = await Promise.all(
      Array.from({ length: 150 }, (_, n) =>
        (n % 2 === 0 ? a : b).hit(rule, subjects[n % 3] ?? 'x'),
      ),
    );
    expect(decisions.every((decision) => decision.allowed)).toBe(true);
    await Promise.all([a.flush(), b.flush()]);
    expect(await stored()).toEqual({ '2026-03-02T09:00:00.000Z': 150 });

    const burst = await Promise.all(
      Array.from({ length: 300 }, (_, n) => (n % 2 === 0 ? a : b).hit(rule, 'burst')),
    );
    const admitted = burst.filter((decision) => decision.allowed).length;
    expect(admitted).toBeGreaterThanOrEqual(rule.limit);
    expect(admitted).toBeLessThanOrEqual(rule.limit + unconfirmedAllowance(rule.limit));
  });

  it('sees what another instance wrote: its first hit of the window reads the shared total', async () => {
    const rule = perMinute(100);
    const [a, b] = [limiter(), limiter()];
    for (let n = 0; n < 100; n++) await a.hit(rule, 'seen');
    await a.flush();
    expect(await b.hit(rule, 'seen')).toMatchObject({ allowed: false, remaining: 0 });
  });

  it('drops idle counters beyond its maximum and re-reads them from the database', async () => {
    const rule = perMinute(100);
    const instance = limiter(2);
    for (const subject of ['a', 'b', 'c']) await instance.hit(rule, subject);
    await instance.flush();
    // Another instance has used up every budget meanwhile.
    await handle.db.update(rateLimitCounters).set({ hits: 100 });
    // 'a' was dropped and is read again; 'c' is decided from memory within the allowance.
    expect((await instance.hit(rule, 'a')).allowed).toBe(false);
    expect((await instance.hit(rule, 'c')).allowed).toBe(true);
    await instance.flush();
  });

  it('flushes on its interval and once more when stopped', async () => {
    const rule = perMinute(1000);
    const logger = createLogger('silent');
    const instance = limiter();
    const flushing = (flushEveryMs: number) => {
      const runner = startJobs(
        rateLimitJobs({
          limiter: instance,
          db: handle.db,
          clock: () => new Date(),
          flushEveryMs,
        }).filter((job) => job.scope === 'instance'),
        { db: handle.db, logger },
      );
      return () => runner.stop();
    };
    const stopQuick = flushing(20);
    for (let n = 0; n < 10; n++) await instance.hit(rule, 'interval');
    const deadline = Date.now() + 5000;
    while ((await stored())['2026-03-02T09:00:00.000Z'] !== 10 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await stored()).toEqual({ '2026-03-02T09:00:00.000Z': 10 });
    await stopQuick();

    const stop = flushing(60_000);
    for (let n = 0; n < 25; n++) await instance.hit(rule, 'interval');
    expect(await stored()).toEqual({ '2026-03-02T09:00:00.000Z': 10 });
    await stop();
    expect(await stored()).toEqual({ '2026-03-02T09:00:00.000Z': 35 });
  });
});
