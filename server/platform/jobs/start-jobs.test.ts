import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { databaseTargets } from '#tests/support/databases.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { createLogger } from '../logger.ts';
import type { Job } from './job.ts';
import { createJobRunRepository } from './job-run-repository.ts';
import { startJobs, type JobRunner } from './start-jobs.ts';

const logger = createLogger('silent');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(databaseTargets)('the job runner on $name', (target) => {
  let handle: DatabaseHandle;
  const runners: JobRunner[] = [];
  const start = (jobs: Job[], instanceId: string, leaseMs = 60_000, checkEveryMs = 20) => {
    const runner = startJobs(jobs, {
      db: handle.db,
      logger,
      instanceId,
      leaseMs,
      checkEveryMs,
    });
    runners.push(runner);
    return runner;
  };
  beforeAll(async () => {
    handle = await target.open();
  });
  afterAll(async () => {
    await Promise.all(runners.map((runner) => runner.stop()));
    await handle.close();
  });

  it('runs an instance job after its first delay, then every period, one run at a time', async () => {
    let runs = 0;
    let overlapping = 0;
    let active = 0;
    const runner = start(
      [
        {
          name: 'tick',
          scope: 'instance',
          everyMs: 10,
          firstAfterMs: 0,
          run: async () => {
            active++;
            overlapping = Math.max(overlapping, active);
            runs++;
            await sleep(15);
            active--;
            return 2;
          },
        },
      ],
      'a',
    );
    await vi.waitFor(() => expect(runs).toBeGreaterThanOrEqual(3), { timeout: 2000 });
    await runner.stop();
    const stoppedAt = runs;
    await sleep(50);
    expect(runs).toBe(stoppedAt);
    expect(overlapping).toBe(1);
    expect(runner.lastRuns()).toEqual([
      expect.objectContaining({ name: 'tick', scope: 'instance', rows: 2, failed: false }),
    ]);
  });

  it('wakes an instance job at once, and runs it again after a run under way', async () => {
    let runs = 0;
    const runner = start(
      [
        {
          name: 'outbox',
          scope: 'instance',
          everyMs: 60_000,
          firstAfterMs: 60_000,
          run: async () => void runs++,
        },
      ],
      'a',
    );
    runner.wake('outbox');
    await vi.waitFor(() => expect(runs).toBe(1));
    expect(() => runner.wake('nothing')).toThrow('no job is named nothing');
    await runner.stop();
  });

  it('brings an instance job’s next run forward when the run says it is due sooner', async () => {
    const startedAt: number[] = [];
    const runner = start(
      [
        {
          name: 'hinted',
          scope: 'instance',
          everyMs: 60_000,
          firstAfterMs: 0,
          run: async () => {
            startedAt.push(Date.now());
            // Due again in 300 ms the first time; the second run says nothing sooner.
            return startedAt.length === 1 ? { rows: 1, nextRunAt: new Date(Date.now() + 300) } : 0;
          },
        },
      ],
      'a',
    );
    await vi.waitFor(() => expect(startedAt).toHaveLength(2), { timeout: 3000 });
    expect((startedAt[1] ?? 0) - (startedAt[0] ?? 0)).toBeGreaterThanOrEqual(280);
    await sleep(400);
    expect(startedAt).toHaveLength(2);
    expect(runner.lastRuns()).toEqual([expect.objectContaining({ name: 'hinted', rows: 0 })]);
    await runner.stop();
  });

  it('runs a cluster job once per period across instances, and records the run', async () => {
    let runs = 0;
    const job = (): Job => ({
      name: 'sweep-once',
      scope: 'cluster',
      everyMs: 60 * 60_000,
      firstAfterMs: 0,
      run: async () => {
        runs++;
        await sleep(30);
        return 7;
      },
    });
    const a = start([job()], 'instance-a');
    const b = start([job()], 'instance-b');
    const c = start([job()], 'instance-c');
    await vi.waitFor(() => expect(runs).toBe(1));
    await sleep(200); // each instance looked again several times (every 20 ms)
    expect(runs).toBe(1);
    await Promise.all([a.stop(), b.stop(), c.stop()]);
    const [row] = (await createJobRunRepository(handle.db).list()).filter(
      (candidate) => candidate.name === 'sweep-once',
    );
    expect(row).toMatchObject({ claimedBy: null, leasedUntil: null, lastRows: 7, lastError: null });
    expect(row!.lastDurationMs).toBeGreaterThanOrEqual(25);
    expect(row!.nextRunAt.getTime() - row!.lastStartedAt!.getTime()).toBe(60 * 60_000);
  });

  it('takes over a run whose instance died, once its lease lapsed', async () => {
    const claims = createJobRunRepository(handle.db);
    await claims.register('orphaned', new Date());
    const now = new Date();
    expect(
      await claims.claim('orphaned', 'dead-instance', now, new Date(now.getTime() + 1000)),
    ).toBe(true);
    let runs = 0;
    start(
      [
        {
          name: 'orphaned',
          scope: 'cluster',
          everyMs: 60 * 60_000,
          firstAfterMs: 0,
          run: async () => void runs++,
        },
      ],
      'survivor',
    );
    await sleep(300);
    expect(runs).toBe(0); // the dead instance's lease still holds
    await vi.waitFor(() => expect(runs).toBe(1), { timeout: 3000 });
  });

  it('retries a failed cluster run soon, and records the error', async () => {
    let attempts = 0;
    const runner = start(
      [
        {
          name: 'flaky',
          scope: 'cluster',
          everyMs: 60 * 60_000,
          firstAfterMs: 0,
          run: async () => {
            attempts++;
            if (attempts === 1) throw new Error('provider unavailable');
          },
        },
      ],
      'a',
      60_000,
      400,
    );
    await vi.waitFor(async () => {
      const [row] = (await createJobRunRepository(handle.db).list()).filter(
        (r) => r.name === 'flaky',
      );
      expect(row?.lastError).toBe('provider unavailable');
    });
    // The retry comes after min(every, check) = 400 ms here, not an hour later.
    await vi.waitFor(() => expect(attempts).toBe(2), { timeout: 2000 });
    await runner.stop();
    const [row] = (await createJobRunRepository(handle.db).list()).filter(
      (r) => r.name === 'flaky',
    );
    expect(row?.lastError).toBeNull();
  });

  it('gives back a crashed run’s lease at once on a database it alone uses', async () => {
    const claims = createJobRunRepository(handle.db);
    await claims.register('after-crash', new Date());
    const now = new Date();
    expect(
      await claims.claim('after-crash', 'crashed', now, new Date(now.getTime() + 3_600_000)),
    ).toBe(true);
    let runs = 0;
    const runner = startJobs(
      [
        {
          name: 'after-crash',
          scope: 'cluster',
          everyMs: 3_600_000,
          firstAfterMs: 0,
          run: async () => void runs++,
        },
      ],
      { db: handle.db, logger, instanceId: 'restarted', exclusive: true, checkEveryMs: 20 },
    );
    runners.push(runner);
    await vi.waitFor(() => expect(runs).toBe(1), { timeout: 3000 });
  });

  it('tells a run to finish early when the runner stops, and calls its stop hook after', async () => {
    const events: string[] = [];
    const runner = startJobs(
      [
        {
          name: 'long-round',
          scope: 'instance',
          everyMs: 60_000,
          firstAfterMs: 0,
          async run(signal) {
            events.push('started');
            while (!signal.aborted) await sleep(5);
            events.push('aborted');
          },
          async onStop() {
            events.push('stopped');
          },
        },
      ],
      { db: handle.db, logger },
    );
    await vi.waitFor(() => expect(events).toEqual(['started']));
    await runner.stop();
    expect(events).toEqual(['started', 'aborted', 'stopped']);
  });

  it('refuses two jobs of one name', () => {
    const job: Job = {
      name: 'twice',
      scope: 'instance',
      everyMs: 1000,
      run: async () => undefined,
    };
    expect(() => startJobs([job, job], { db: handle.db, logger })).toThrow(
      'two jobs are named twice',
    );
  });
});
