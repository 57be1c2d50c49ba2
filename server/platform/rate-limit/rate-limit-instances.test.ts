import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { databaseTargets } from '#tests/support/databases.ts';
import { openDatabase, type DatabaseHandle } from '../db/client.ts';
import { liveInstances } from '../db/schema.ts';
import { createInstanceRegistry, INSTANCE_HEARTBEAT_MS } from '../instances/instance-registry.ts';
import { rateLimitRules } from './rate-limit-rules.ts';
import { createRateLimiter, type LimitSharers, type RateLimiter } from './rate-limiter.ts';

const secretKey = 'rate-limit-instances-secret-0123456789abcdef';
const INSTANCES = 4;

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
async function admittedInOneWindow(limiters: RateLimiter[], subject: string): Promise<number> {
  const rule = rateLimitRules.checkoutStatusOverall;
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
      const rule = rateLimitRules.checkoutStatusOverall;
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
  },
);
