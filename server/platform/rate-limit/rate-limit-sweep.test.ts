import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '#tests/support/databases.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { rateLimitCounters } from '../db/schema.ts';
import { deleteExpiredCounters } from './rate-limit-repository.ts';

describe.each(databaseTargets)('the rate-limit sweep on $name (decision 175)', (target) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await target.open();
  });
  afterAll(async () => {
    await handle.close();
  });

  it('deletes every ended window in batches, counting in the database, and keeps live ones', async () => {
    const now = new Date('2026-05-01T12:00:00Z');
    const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000);
    await handle.db.insert(rateLimitCounters).values([
      ...Array.from({ length: 11 }, (_, n) => ({
        bucket: `ended-${n}`,
        windowStart: at(-60),
        hits: 1,
        expiresAt: at(-n - 1),
      })),
      { bucket: 'live-a', windowStart: at(-1), hits: 3, expiresAt: at(1) },
      { bucket: 'live-b', windowStart: at(0), hits: 1, expiresAt: at(59) },
    ]);
    expect(await deleteExpiredCounters(handle.db, now, 4)).toBe(11);
    const left = await handle.db.select().from(rateLimitCounters);
    expect(left.map((row) => row.bucket).sort()).toEqual(['live-a', 'live-b']);
    expect(await deleteExpiredCounters(handle.db, now, 4)).toBe(0);
  });
});
