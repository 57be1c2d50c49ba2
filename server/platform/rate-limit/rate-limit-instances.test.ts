import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { databaseTargets } from '#tests/support/databases.ts';
import { openDatabase, type DatabaseHandle } from '../db/client.ts';
import { liveInstances, rateLimitCounters } from '../db/schema.ts';
import { createInstanceRegistry, INSTANCE_HEARTBEAT_MS } from '../instances/instance-registry.ts';
import { licenceValidationRules, rateLimitRules } from './rate-limit-rules.ts';
import {
  createRateLimiter,
  instanceShare,
  type LimitSharers,
  type RateLimiter,
  type RateLimitRule,
} from './rate-limiter.ts';

const secretKey = 'rate-limit-instances-secret-0123456789abcdef';
const INSTANCES = 4;
/** A global limit counted in the database (the checkout-status one before decision 238). */
const exactRule: RateLimitRule = { name: 'test:all', limit: 600, windowSeconds: 60 };

/** Another connection pool to the same PostgreSQL database: another server instance. */
async function samePostgres(handle: DatabaseHandle): Promise<DatabaseHandle> {
  const result = z
    .object({ rows: z.array(z.object({ name: z.string() })) })
    .parse(await handle.db.execute(sql`select current_database() as name`));
  const url = new URL(
    process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  );
  url.pathname = `/${result.rows[0]?.name ?? ''}`;
  return openDatabase({ databaseUrl: url.toString() });
}

/**
 * Every instance hits the rule at once, round after round, until each has been refused a few
 * times in a row; returns how many hits were admitted in the window.
 */
async function admittedInOneWindow(
  limiters: RateLimiter[],
  subject: string,
  rule: RateLimitRule = exactRule,
): Promise<number> {
  let admitted = 0;
  const refusedInARow = limiters.map(() => 0);
  while (refusedInARow.some((count) => count < 3)) {
    const decisions = await Promise.all(limiters.map((limiter) => limiter.hit(rule, subject)));
    decisions.forEach((decision, index) => {
      if (decision.allowed) admitted += 1;
      refusedInARow[index] = decision.allowed ? 0 : (refusedInARow[index] ?? 0) + 1;
    });
  }
  return admitted;
}

describe.each(databaseTargets.filter((target) => target.name === 'postgres'))(
  'a global limit on $name with four instances',
  (target) => {
    let handle: DatabaseHandle;
    const pools: DatabaseHandle[] = [];
    let now = new Date('2026-05-04T08:00:10Z');
    const clock = () => now;

    beforeAll(async () => {
      handle = await target.open();
      for (let n = 0; n < INSTANCES; n++) pools.push(await samePostgres(handle));
    });
    afterAll(async () => {
      await Promise.all(pools.map((pool) => pool.close()));
      await handle.close();
    });

    it('admits at most the limit plus its 10 % share, whatever the instance count (decision 195)', async () => {
      const rule = exactRule;
      await handle.db.delete(liveInstances);
      const registries = pools.map((pool, n) =>
        createInstanceRegistry({ db: pool.db, clock, id: `instance-${n}` }),
      );
      // Registered, and counted by one another (two renewals each).
      for (let round = 0; round < 3; round++) {
        for (const registry of registries) await registry.heartbeat();
        now = new Date(now.getTime() + INSTANCE_HEARTBEAT_MS);
      }
      expect(registries.map((registry) => registry.shareDivisor())).toEqual([4, 4, 4, 4]);
      const limiters = (sharers: (n: number) => LimitSharers | undefined) =>
        pools.map((pool, n) =>
          createRateLimiter({ db: pool.db, clock, secretKey, sharers: sharers(n) }),
        );

      const shared = await admittedInOneWindow(
        limiters((n) => registries[n]),
        'shared',
      );
      // Each instance alone in its own eyes (the old rule): the overshoot grows with the count.
      const alone = await admittedInOneWindow(
        limiters(() => undefined),
        'alone',
      );
      console.log(
        `[rate-limit] ${rule.name} ${rule.limit}/min on ${INSTANCES} instances: admitted ${shared} (each alone: ${alone})`,
      );
      expect(shared).toBeGreaterThanOrEqual(rule.limit);
      expect(shared).toBeLessThanOrEqual(rule.limit * 1.1);
      expect(alone).toBeGreaterThan(rule.limit * 1.1);
    });

    it('counts a memory limit per instance against the live count, writing nothing (decision 238)', async () => {
      const rule = rateLimitRules.checkoutStatusOverall;
      await handle.db.delete(rateLimitCounters);
      await handle.db.delete(liveInstances);
      const registries = pools.map((pool, n) =>
        createInstanceRegistry({ db: pool.db, clock, id: `memory-${n}` }),
      );
      for (const registry of registries) await registry.heartbeat();
      // The count each instance read at its own heartbeat: the later ones saw more.
      expect(registries.map((registry) => registry.instanceCount())).toEqual([1, 2, 3, 4]);
      for (const registry of registries) await registry.heartbeat();
      expect(registries.map((registry) => registry.instanceCount())).toEqual([4, 4, 4, 4]);
      const limiters = pools.map((pool, n) =>
        createRateLimiter({ db: pool.db, clock, secretKey, sharers: registries[n] }),
      );
      // Spread evenly, the cluster admits the limit: 150 each.
      expect(await admittedInOneWindow(limiters, 'memory', rule)).toBe(rule.limit);
      // All on one instance (a pinned client), that instance's part only.
      const pinned = limiters[0];
      let admitted = 0;
      for (let n = 0; n < rule.limit; n++) {
        if (pinned && (await pinned.hit(rule, 'pinned')).allowed) admitted += 1;
      }
      expect(admitted).toBe(rule.limit / INSTANCES);
      await Promise.all(limiters.map((limiter) => limiter.flush()));
      expect(await handle.db.select().from(rateLimitCounters)).toEqual([]);
      await Promise.all(registries.map((registry) => registry.leave()));
    });
  },
);

describe('memory limits across fifty instances (decision 238)', () => {
  const now = new Date('2026-05-04T08:00:10Z');
  /** Fifty instances in one process: no database is touched (`db` is never used for these rules). */
  function fleet(instances: number): RateLimiter[] {
    const sharers: LimitSharers = { shareDivisor: () => instances, instanceCount: () => instances };
    return Array.from({ length: instances }, () =>
      createRateLimiter({
        db: undefined as never,
        clock: () => now,
        secretKey,
        sharers,
      }),
    );
  }

  it('admits the limit spread evenly over fifty, and at most limit + 49 however it is spread', async () => {
    const validation = licenceValidationRules(600).perCredential;
    expect(instanceShare(validation.limit, 50)).toBe(12);
    expect(await admittedInOneWindow(fleet(50), 'key', validation)).toBe(600);
    // A limit smaller than the fleet: one each, 50 in all (at most limit + N - 1 = 79).
    const perIp = rateLimitRules.checkoutStatusPerIp;
    const admitted = await admittedInOneWindow(fleet(50), '203.0.113.9', perIp);
    expect(admitted).toBe(50);
    expect(admitted).toBeLessThanOrEqual(perIp.limit + 49);
  });

  it("reports what is left of the limit as the cluster's, estimated from this instance", async () => {
    const [first] = fleet(50);
    const rule = licenceValidationRules(600).perCredential;
    const decision = await first?.hit(rule, 'key');
    expect(decision).toMatchObject({ allowed: true, limit: 600, remaining: 550 });
  });
});
