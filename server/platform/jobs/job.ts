/**
 * A background job (decision 174). Each says where it runs:
 * - `cluster`: once per period across every instance on one database (claimed with a lease in
 *   `job_runs`); for sweeps, reminders, retention and scheduled work that must not run twice.
 * - `instance`: on every instance; for work on the instance's own state (its outbox poller, its
 *   rate-limit counters, its key cache).
 */
export type JobScope = 'cluster' | 'instance';

export interface Job {
  /** Stable name, e.g. `licence-lifecycle`: the row in `job_runs` and the label in `/metrics`. */
  name: string;
  scope: JobScope;
  /** How often it runs. A cluster job runs this long after its last start, on whichever instance. */
  everyMs: number;
  /** The first run after start-up on this instance (default 1 s); a cluster job still waits until it is due. */
  firstAfterMs?: number;
  /**
   * Does one run; returns the rows it touched (for `/metrics`), or nothing. `signal` aborts when
   * the runner stops: a long run finishes what it holds and returns early. An `instance` job may
   * also say when its next run is due, if sooner than `everyMs` (decision 243).
   */
  run(signal: AbortSignal): Promise<number | void | { rows: number; nextRunAt: Date }>;
  /** Called once when the runner stops, after the run under way ended (e.g. a last flush). */
  onStop?(): Promise<void>;
}

/** How a job's last run on this instance went (`/metrics`). */
export interface JobRunReport {
  name: string;
  scope: JobScope;
  startedAt: Date;
  durationMs: number;
  rows: number;
  failed: boolean;
}
