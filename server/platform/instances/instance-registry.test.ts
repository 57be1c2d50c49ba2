import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { databaseTargets } from '#tests/support/databases.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { liveInstances } from '../db/schema.ts';
import { createInstanceRegistry, INSTANCE_HEARTBEAT_MS } from './instance-registry.ts';

describe.each(databaseTargets)('registry of live instances on $name', (target) => {
  let handle: DatabaseHandle;
  let now: Date;
  const clock = () => now;
  const advance = (ms: number) => {
    now = new Date(now.getTime() + ms);
  };
  const registry = (id: string) => createInstanceRegistry({ db: handle.db, clock, id });

  beforeAll(async () => {
    handle = await target.open();
  });
  afterAll(() => handle.close());
  beforeEach(async () => {
    now = new Date('2026-05-04T08:00:00Z');
    await handle.db.delete(liveInstances);
  });

  it('divides by nothing until every other instance has had two renewals to count this one', async () => {
    const a = registry('a');
    expect(a.shareDivisor()).toBeUndefined();
    expect(await a.heartbeat()).toBe(1);
    expect(a.shareDivisor()).toBeUndefined();
    advance(INSTANCE_HEARTBEAT_MS);
    await a.heartbeat();
    expect(a.shareDivisor()).toBeUndefined();
    advance(INSTANCE_HEARTBEAT_MS);
    await a.heartbeat();
    expect(a.shareDivisor()).toBe(1);
  });

  it('counts the instances renewed lately, forgets a dead one, and one that left at once', async () => {
    const [a, b, c] = [registry('a'), registry('b'), registry('c')];
    for (let round = 0; round < 3; round++) {
      for (const instance of [a, b, c]) await instance.heartbeat();
      advance(INSTANCE_HEARTBEAT_MS);
    }
    expect(await a.heartbeat()).toBe(3);
    expect(a.shareDivisor()).toBe(3);
    // c dies: after three missed renewals it is not counted any more.
    for (let round = 0; round < 3; round++) {
      advance(INSTANCE_HEARTBEAT_MS);
      await a.heartbeat();
      await b.heartbeat();
    }
    expect(a.shareDivisor()).toBe(2);
    // b stops cleanly: counted out at the next renewal.
    await b.leave();
    expect(await a.heartbeat()).toBe(1);
    // c's row is deleted after an hour.
    advance(60 * 60_000);
    await a.heartbeat();
    const rows = await handle.db.select().from(liveInstances);
    expect(rows.map((row) => row.id)).toEqual(['a']);
  });

  it('stops dividing when the database has not seen this instance for two renewals', async () => {
    const a = registry('a');
    for (let round = 0; round < 3; round++) {
      await a.heartbeat();
      advance(INSTANCE_HEARTBEAT_MS);
    }
    expect(a.shareDivisor()).toBe(1);
    advance(INSTANCE_HEARTBEAT_MS);
    // Renewals failing (the database away): the others may stop counting it soon.
    expect(a.shareDivisor()).toBeUndefined();
  });
  it('has one instance report the cluster-wide figures, and another take over when it stops', async () => {
    const [a, b, c] = [registry('a'), registry('b'), registry('c')];
    // Before the first heartbeat each instance reports (it cannot know of the others).
    expect([a, b, c].map((instance) => instance.reportsCluster())).toEqual([true, true, true]);
    expect(a.databaseAnswering()).toBe(false);
    for (const instance of [c, b, a]) await instance.heartbeat();
    for (const instance of [c, b, a]) await instance.heartbeat();
    expect([a, b, c].map((instance) => instance.reportsCluster())).toEqual([true, false, false]);
    expect(b.databaseAnswering()).toBe(true);
    // a stops: b reads it gone at its next renewal and reports from then on.
    await a.leave();
    advance(INSTANCE_HEARTBEAT_MS);
    for (const instance of [b, c]) await instance.heartbeat();
    expect([b, c].map((instance) => instance.reportsCluster())).toEqual([true, false]);
    // c no longer reaches the database: it reports (unreachable) rather than stay silent.
    for (let round = 0; round < 3; round++) {
      advance(INSTANCE_HEARTBEAT_MS);
      await b.heartbeat();
    }
    expect(c.databaseAnswering()).toBe(false);
    expect(c.reportsCluster()).toBe(true);
  });
});
