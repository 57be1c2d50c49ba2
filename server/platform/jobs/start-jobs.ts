import { actingAs } from '../audit/audit-context.ts';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Database } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import type { Job, JobRunReport } from './job.ts';
import { createJobRunRepository } from './job-run-repository.ts';

/** A cluster job's lease: extended while it runs; when its instance dies, another takes over after it. */
export const JOB_LEASE_MS = 2 * 60_000;
/** Instances look for a due cluster job at least this often, and retry a failed run after this. */
export const JOB_CHECK_MS = 60_000;
const DEFAULT_FIRST_AFTER_MS = 1000;
/** The soonest an instance job's own hint may bring its next run (no busy loop on a past time). */
const MIN_NEXT_RUN_MS = 200;

export interface JobRunner {
  /** Runs an instance job now (or right after the run under way); e.g. the outbox after a send was queued. */
  wake(name: string): void;
  /** This instance's last run of each job. */
  lastRuns(): JobRunReport[];
  /** Stops the timers and waits for the runs under way. */
  stop(): Promise<void>;
}

export interface JobRunnerOptions {
  db: Database;
  logger: Logger;
  clock?: () => Date;
  /** Who claims cluster jobs in `job_runs` (default host, process and a random part). */
  instanceId?: string;
  leaseMs?: number;
  checkEveryMs?: number;
  /**
   * No other process uses this database (the embedded one, behind its lock): leases found at
   * start are a crashed run's of this data directory and are given back before the first claim.
   */
  exclusive?: boolean;
}

/**
 * The one runner of background jobs (decision 174). Every job runs one at a time on an instance;
 * an `instance` job runs every `everyMs` after its last run ended; a `cluster` job is claimed in
 * `job_runs` with a lease when due, so one instance runs it per period, and a run whose instance
 * died is taken over once its lease lapses (within `leaseMs + checkEveryMs`).
 */
export function startJobs(jobs: readonly Job[], options: JobRunnerOptions): JobRunner {
  const clock = options.clock ?? (() => new Date());
  const leaseMs = options.leaseMs ?? JOB_LEASE_MS;
  const checkEveryMs = options.checkEveryMs ?? JOB_CHECK_MS;
  const owner =
    options.instanceId ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const claims = createJobRunRepository(options.db);
  const leasesReleased = options.exclusive
    ? claims.releaseAll().catch((error: unknown) => {
        options.logger.warn({ err: error }, 'could not release the jobs’ leases');
      })
    : Promise.resolve();
  const reports = new Map<string, JobRunReport>();
  const stopping = new AbortController();

  const names = new Set<string>();
  for (const job of jobs) {
    if (names.has(job.name)) throw new Error(`two jobs are named ${job.name}`);
    names.add(job.name);
  }

  const record = (job: Job, startedAt: Date, rows: number, failed: boolean) => {
    reports.set(job.name, {
      name: job.name,
      scope: job.scope,
      startedAt,
      durationMs: clock().getTime() - startedAt.getTime(),
      rows,
      failed,
    });
  };

  const slots = jobs.map((job) => {
    const logger = options.logger.child({ job: job.name });
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<void> | undefined;
    let again = false;

    const arm = (ms: number) => {
      if (stopping.signal.aborted) return;
      clearTimeout(timer);
      timer = setTimeout(start, Math.max(0, ms));
      timer.unref();
    };

    /** One instance run; resolves to the delay until the next. */
    const runOnInstance = async (): Promise<number> => {
      const startedAt = clock();
      try {
        const outcome =
          (await actingAs({ actor: `system:${job.name}` }, () => job.run(stopping.signal))) ?? 0;
        if (typeof outcome === 'number') {
          record(job, startedAt, outcome, false);
        } else {
          record(job, startedAt, outcome.rows, false);
          const untilNext = outcome.nextRunAt.getTime() - clock().getTime();
          return Math.min(job.everyMs, Math.max(MIN_NEXT_RUN_MS, untilNext));
        }
      } catch (error) {
        record(job, startedAt, 0, true);
        logger.error({ err: error }, 'job failed');
      }
      return job.everyMs;
    };

    /** One attempt at a cluster job; resolves to the delay until the next look. */
    const runOnCluster = async (): Promise<number> => {
      const startedAt = clock();
      let won: boolean;
      try {
        await leasesReleased;
        await claims.register(job.name, startedAt);
        won = await claims.claim(
          job.name,
          owner,
          startedAt,
          new Date(startedAt.getTime() + leaseMs),
        );
      } catch (error) {
        logger.warn({ err: error }, 'could not claim the job; trying again later');
        return Math.min(job.everyMs, checkEveryMs);
      }
      if (!won) return Math.min(job.everyMs, checkEveryMs);

      const heartbeat = setInterval(() => {
        claims
          .extend(job.name, owner, new Date(clock().getTime() + leaseMs))
          .then((kept) => {
            if (!kept) logger.warn('the job’s lease was lost while it ran');
          })
          .catch((error: unknown) =>
            logger.warn({ err: error }, 'could not extend the job’s lease'),
          );
      }, leaseMs / 3);
      heartbeat.unref();
      let rows = 0;
      let failure: unknown;
      try {
        const outcome =
          (await actingAs({ actor: `system:${job.name}` }, () => job.run(stopping.signal))) ?? 0;
        rows = typeof outcome === 'number' ? outcome : outcome.rows;
      } catch (error) {
        failure = error;
        logger.error({ err: error }, 'job failed');
      } finally {
        clearInterval(heartbeat);
      }
      record(job, startedAt, rows, failure !== undefined);
      const finishedAt = clock();
      const nextRunAt =
        failure === undefined
          ? new Date(startedAt.getTime() + job.everyMs)
          : new Date(finishedAt.getTime() + Math.min(job.everyMs, checkEveryMs));
      try {
        await claims.finish(job.name, owner, {
          finishedAt,
          durationMs: finishedAt.getTime() - startedAt.getTime(),
          rows,
          error:
            failure === undefined
              ? null
              : String(failure instanceof Error ? failure.message : failure).slice(0, 500),
          nextRunAt,
        });
      } catch (error) {
        // The lease lapses and another run takes the job over: late, never lost.
        logger.warn({ err: error }, 'could not record the job’s run');
      }
      return Math.min(job.everyMs, checkEveryMs);
    };

    function start() {
      if (stopping.signal.aborted) return;
      if (running) {
        again = true;
        return;
      }
      running = (job.scope === 'cluster' ? runOnCluster() : runOnInstance()).then((delay) => {
        running = undefined;
        if (again) {
          again = false;
          arm(0);
        } else {
          arm(delay);
        }
      });
    }

    arm(job.firstAfterMs ?? DEFAULT_FIRST_AFTER_MS);
    return {
      job,
      wake: () => start(),
      stop: async () => {
        clearTimeout(timer);
        await running;
        await job
          .onStop?.()
          .catch((error: unknown) => logger.error({ err: error }, 'job stop failed'));
      },
    };
  });

  return {
    wake(name) {
      const slot = slots.find((candidate) => candidate.job.name === name);
      if (!slot) throw new Error(`no job is named ${name}`);
      slot.wake();
    },
    lastRuns: () => [...reports.values()],
    async stop() {
      stopping.abort();
      await Promise.all(slots.map((slot) => slot.stop()));
    },
  };
}
