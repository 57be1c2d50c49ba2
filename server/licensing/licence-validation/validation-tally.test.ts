import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { databaseTargets } from '#tests/support/databases.ts';
import type { DatabaseHandle } from '#server/platform/db/client.ts';
import { validationDays } from '#server/platform/db/schema.ts';
import { createLogger } from '#server/platform/logger.ts';
import { validationCountsBetween } from './validation-days-repository.ts';
import { createValidationTally, validationTallyJob } from './validation-tally.ts';

const logger = createLogger('silent');
const signal = new AbortController().signal;

describe('the validation tally in memory', () => {
  it('counts by UTC day and code, and hands its counts over once', () => {
    let now = new Date('2026-03-01T23:59:59.900Z');
    const tally = createValidationTally(() => now);
    tally.count('VALID');
    tally.count('VALID');
    tally.count('EXPIRED');
    now = new Date('2026-03-02T00:00:00.100Z');
    tally.count('VALID');
    expect(tally.pending()).toBe(4);
    expect(tally.take()).toEqual([
      { day: '2026-03-01', code: 'VALID', answers: 2 },
      { day: '2026-03-01', code: 'EXPIRED', answers: 1 },
      { day: '2026-03-02', code: 'VALID', answers: 1 },
    ]);
    expect(tally.take()).toEqual([]);
    expect(tally.pending()).toBe(0);
  });

  it('keeps counts put back after a failed write, added to those counted meanwhile', () => {
    const tally = createValidationTally(() => new Date('2026-03-01T12:00:00Z'));
    tally.count('VALID');
    const taken = tally.take();
    tally.count('VALID');
    tally.putBack(taken);
    expect(tally.take()).toEqual([{ day: '2026-03-01', code: 'VALID', answers: 2 }]);
  });
});

describe.each(databaseTargets)('validation counts per day on $name', (target) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await target.open();
  });
  afterAll(async () => {
    await handle.close();
  });
  beforeEach(async () => {
    await handle.db.delete(validationDays);
  });

  it('two instances add their counts to the same days; a stop writes the last counts', async () => {
    const now = new Date('2026-03-01T12:00:00Z');
    const first = createValidationTally(() => now);
    const second = createValidationTally(() => now);
    for (let i = 0; i < 3; i++) first.count('VALID');
    second.count('VALID');
    second.count('TOO_MANY_ORGS');
    const firstJob = validationTallyJob(handle.db, first, logger);
    const secondJob = validationTallyJob(handle.db, second, logger);
    expect(await firstJob.run(signal)).toBe(1);
    expect(await secondJob.run(signal)).toBe(2);
    first.count('VALID');
    await firstJob.onStop?.();
    expect(first.pending()).toBe(0);
    expect(await validationCountsBetween(handle.db, '2026-03-01', '2026-03-02')).toEqual([
      { day: '2026-03-01', code: 'TOO_MANY_ORGS', answers: 1 },
      { day: '2026-03-01', code: 'VALID', answers: 5 },
    ]);
    // A day outside the range is not read.
    expect(await validationCountsBetween(handle.db, '2026-03-02', '2026-04-01')).toEqual([]);
  });

  it('keeps the counts when the database refuses them, and writes them with the next run', async () => {
    const now = new Date('2026-03-01T12:00:00Z');
    const tally = createValidationTally(() => now);
    tally.count('NOT_FOUND');
    const closed = await target.open();
    await closed.close();
    await expect(validationTallyJob(closed.db, tally, logger).run(signal)).rejects.toThrow();
    expect(tally.pending()).toBe(1);
    // A stop that cannot write says so and keeps them (nothing thrown).
    await validationTallyJob(closed.db, tally, logger).onStop?.();
    expect(tally.pending()).toBe(1);
    await validationTallyJob(handle.db, tally, logger).run(signal);
    expect(await validationCountsBetween(handle.db, '2026-03-01', '2026-03-02')).toEqual([
      { day: '2026-03-01', code: 'NOT_FOUND', answers: 1 },
    ]);
  });
});
