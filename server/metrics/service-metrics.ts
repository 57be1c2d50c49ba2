import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DatabaseHandle } from '../platform/db/client.ts';
import type { DeliveryOutcome, DeliveryReport } from '../platform/email/deliver-outbox.ts';
import { createProviderCallRepository } from '../billing/subscriptions/provider-call-repository.ts';
import { createOutboxRepository } from '../platform/email/outbox-repository.ts';
import type { JobRunReport } from '../platform/jobs/job.ts';
import { createJobRunRepository } from '../platform/jobs/job-run-repository.ts';
import { validationCodes, type ValidationCode } from '../licensing/licences/check-licence.ts';
import type { PageCacheStats } from '../features/site/page-cache.ts';

/**
 * What the service reports about itself for `GET /metrics` (decision 131). Domains call these
 * plain methods; only this folder knows prom-client. Every label value comes from our own code
 * (route patterns, rule names, result codes), never from a request.
 */
export interface ServiceMetrics {
  /** One answered request: its method, route label (`requestMetrics`), status and duration. */
  requestServed(method: string, route: string, status: number, seconds: number): void;
  licenceValidated(code: ValidationCode): void;
  rateLimitRefused(rule: string): void;
  outboxDelivered(outcome: DeliveryOutcome): void;
  /** The page store whose counts each scrape reads. */
  watchPageStore(stats: () => PageCacheStats): void;
  /** Reads this instance's last run of each job when scraped (cluster jobs come from `job_runs`). */
  watchJobs(lastRuns: () => JobRunReport[]): void;
  /** The count of log lines standard output could not take, read when scraped (decision 207). */
  watchLogOutput(droppedLines: () => number): void;
  /** The exposition in Prometheus text format, with the database gauges sampled now. */
  expose(): Promise<{ contentType: string; body: string }>;
}

/** A scrape waits this long for the database, then reports it unreachable instead. */
export const DATABASE_SAMPLE_TIMEOUT_MS = 1_000;

/** From a stored page (well under a millisecond) to a slow database call. */
const LATENCY_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref();
    }),
  ]);
}

/** Metrics are off (no `METRICS_TOKEN`, no `METRICS_PORT`): nothing is counted or kept. */
export const metricsOff: ServiceMetrics = {
  requestServed: () => undefined,
  licenceValidated: () => undefined,
  rateLimitRefused: () => undefined,
  outboxDelivered: () => undefined,
  watchPageStore: () => undefined,
  watchJobs: () => undefined,
  watchLogOutput: () => undefined,
  expose: async () => ({ contentType: 'text/plain; charset=utf-8', body: '' }),
};

/**
 * The process's metrics in a registry of their own: requests by route, the page store, the
 * outbox, licence validations, rate-limit refusals, the database, and Node's process metrics.
 * Gauges that need the database are sampled when scraped, within a second, and a database that
 * does not answer leaves them out rather than failing the scrape.
 */
export function createServiceMetrics(options: {
  database: DatabaseHandle;
  clock: () => Date;
  /**
   * Which instance reads the cluster-wide gauges (decision 240): the others leave them out and
   * take the database's reachability from their heartbeat, so a scrape of them runs no statement.
   * Without it (one instance, the embedded database) every scrape reads them.
   */
  cluster?: { reportsCluster(): boolean; databaseAnswering(): boolean };
}): ServiceMetrics {
  const { database, clock, cluster } = options;
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });

  const requests = new Histogram({
    name: 'orgsmith_http_request_duration_seconds',
    help: 'Requests by method, route pattern (page, asset or the API route) and status: time to the response',
    labelNames: ['method', 'route', 'status'],
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const validations = new Counter({
    name: 'orgsmith_license_validations_total',
    help: 'Licence validations answered, by result code',
    labelNames: ['code'],
    registers,
  });
  const refusals = new Counter({
    name: 'orgsmith_rate_limit_refusals_total',
    help: 'Requests refused by a rate limit, by rule',
    labelNames: ['rule'],
    registers,
  });
  const deliveries = new Counter({
    name: 'orgsmith_outbox_deliveries_total',
    help: 'E-mail delivery attempts of this instance: sent, retrying (failed, tried again later) or failed (given up)',
    labelNames: ['outcome'],
    registers,
  });

  // Known label values start at 0, so a rate is defined before the first event.
  for (const code of validationCodes) validations.inc({ code }, 0);
  const noDeliveries: DeliveryReport = { sent: 0, retrying: 0, failed: 0 };
  for (const outcome of Object.keys(noDeliveries)) deliveries.inc({ outcome }, 0);

  let pageStore: (() => PageCacheStats) | undefined;
  new Counter({
    name: 'orgsmith_page_store_requests_total',
    help: 'Document requests answered from the page store (hit) or rendered (miss)',
    labelNames: ['result'],
    registers,
    collect() {
      const stats = pageStore?.();
      if (!stats) return;
      this.reset();
      this.inc({ result: 'hit' }, stats.hits);
      this.inc({ result: 'miss' }, stats.misses);
    },
  });
  new Gauge({
    name: 'orgsmith_page_store_pages',
    help: 'Pages held in the page store',
    registers,
    collect() {
      this.set(pageStore?.().pages ?? 0);
    },
  });
  new Gauge({
    name: 'orgsmith_page_store_bytes',
    help: 'Bytes of the stored pages (brotli, gzip and identity bodies)',
    registers,
    collect() {
      this.set(pageStore?.().bytes ?? 0);
    },
  });

  let logDrops: (() => number) | undefined;
  new Counter({
    name: 'orgsmith_log_lines_dropped_total',
    help: 'Log lines dropped because standard output did not keep up (its reader stalled or went away)',
    registers,
    collect() {
      this.reset();
      this.inc(logDrops?.() ?? 0);
    },
  });

  new Gauge({
    name: 'orgsmith_database_info',
    help: 'The database this instance uses (kind: pglite or postgres)',
    labelNames: ['kind'],
    registers,
  }).set({ kind: database.kind }, 1);
  const reachable = new Gauge({
    name: 'orgsmith_database_reachable',
    help: 'Whether the database answered the scrape within a second (1) or not (0)',
    registers,
  });
  const pending = new Gauge({
    name: 'orgsmith_outbox_pending_messages',
    help: 'E-mails waiting to be sent (due or waiting for a retry), all instances',
    registers,
  });
  const oldestDue = new Gauge({
    name: 'orgsmith_outbox_oldest_due_seconds',
    help: 'Age of the oldest e-mail that is due and unsent (0 when none), all instances',
    registers,
  });
  const providerCallGauge = new Gauge({
    name: 'orgsmith_provider_calls',
    help: 'The lifecycle’s provider calls (cancel, re-read) waiting or given up after their last attempt, all instances (decision 246)',
    labelNames: ['status'],
    registers,
  });
  const pool = database.poolStats
    ? {
        stats: database.poolStats,
        open: new Gauge({
          name: 'orgsmith_database_pool_connections',
          help: 'Connections the PostgreSQL pool holds open',
          registers,
        }),
        idle: new Gauge({
          name: 'orgsmith_database_pool_idle_connections',
          help: 'Open connections of the pool no query is using',
          registers,
        }),
        waiting: new Gauge({
          name: 'orgsmith_database_pool_waiting_requests',
          help: 'Queries waiting for a connection of the pool',
          registers,
        }),
        max: new Gauge({
          name: 'orgsmith_database_pool_max_connections',
          help: 'Connections the pool may open',
          registers,
        }),
      }
    : undefined;

  const jobLabels = ['job', 'scope'];
  const jobFinished = new Gauge({
    name: 'orgsmith_job_last_run_timestamp_seconds',
    help: 'When each job last finished a run: cluster jobs on any instance, instance jobs on this one',
    labelNames: jobLabels,
    registers,
  });
  const jobDuration = new Gauge({
    name: 'orgsmith_job_last_duration_seconds',
    help: 'How long each job’s last run took',
    labelNames: jobLabels,
    registers,
  });
  const jobRows = new Gauge({
    name: 'orgsmith_job_last_rows',
    help: 'Rows (licences, e-mails, counters, invoices) each job’s last run touched',
    labelNames: jobLabels,
    registers,
  });
  const jobFailed = new Gauge({
    name: 'orgsmith_job_last_failed',
    help: 'Whether each job’s last run failed (1) or not (0)',
    labelNames: jobLabels,
    registers,
  });
  let instanceJobs: (() => JobRunReport[]) | undefined;
  const setJob = (
    labels: { job: string; scope: string },
    run: { finishedAt: Date; durationMs: number; rows: number; failed: boolean },
  ) => {
    jobFinished.set(labels, run.finishedAt.getTime() / 1000);
    jobDuration.set(labels, run.durationMs / 1000);
    jobRows.set(labels, run.rows);
    jobFailed.set(labels, run.failed ? 1 : 0);
  };

  /** Cluster jobs this instance has reported, to leave out when another instance reports them. */
  const clusterJobsSeen = new Set<string>();
  const outbox = createOutboxRepository(database.db);
  const jobRuns = createJobRunRepository(database.db);
  const providerCalls = createProviderCallRepository(database.db);
  async function sampleDatabase(): Promise<void> {
    if (pool) {
      const stats = pool.stats();
      pool.open.set(stats.total);
      pool.idle.set(stats.idle);
      pool.waiting.set(stats.waiting);
      pool.max.set(stats.max);
    }
    const now = clock();
    for (const run of instanceJobs?.() ?? []) {
      if (run.scope !== 'instance') continue;
      setJob(
        { job: run.name, scope: run.scope },
        { ...run, finishedAt: new Date(run.startedAt.getTime() + run.durationMs) },
      );
    }
    if (cluster && !cluster.reportsCluster()) {
      // Another instance reports the outbox and the cluster jobs: leave them out here.
      reachable.set(cluster.databaseAnswering() ? 1 : 0);
      pending.remove();
      oldestDue.remove();
      providerCallGauge.reset();
      for (const gauge of [jobFinished, jobDuration, jobRows, jobFailed]) {
        for (const name of clusterJobsSeen) gauge.remove({ job: name, scope: 'cluster' });
      }
      return;
    }
    try {
      const [backlog, clusterRuns, calls] = await within(
        Promise.all([outbox.backlog(now), jobRuns.list(), providerCalls.counts()]),
        DATABASE_SAMPLE_TIMEOUT_MS,
      );
      providerCallGauge.set({ status: 'pending' }, calls.pending);
      providerCallGauge.set({ status: 'failed' }, calls.failed);
      for (const run of clusterRuns) {
        if (!run.lastFinishedAt) continue;
        clusterJobsSeen.add(run.name);
        setJob(
          { job: run.name, scope: 'cluster' },
          {
            finishedAt: run.lastFinishedAt,
            durationMs: run.lastDurationMs ?? 0,
            rows: run.lastRows ?? 0,
            failed: run.lastError !== null,
          },
        );
      }
      reachable.set(1);
      pending.set(backlog.pending);
      const ageMs = backlog.oldestDue ? now.getTime() - backlog.oldestDue.getTime() : 0;
      oldestDue.set(Math.max(0, ageMs) / 1000);
    } catch {
      // Unknown is not zero: the samples are left out until the database answers again.
      reachable.set(0);
      pending.remove();
      oldestDue.remove();
      providerCallGauge.reset();
    }
  }
  // Scrapes that overlap share one round trip, so a flood of them costs the database one query.
  let sampling: Promise<void> | undefined;
  const sample = () =>
    (sampling ??= sampleDatabase().finally(() => {
      sampling = undefined;
    }));

  return {
    requestServed(method, route, status, seconds) {
      requests.observe({ method, route, status }, seconds);
    },
    licenceValidated(code) {
      validations.inc({ code });
    },
    rateLimitRefused(rule) {
      refusals.inc({ rule });
    },
    outboxDelivered(outcome) {
      deliveries.inc({ outcome });
    },
    watchPageStore(stats) {
      pageStore = stats;
    },
    watchJobs(lastRuns) {
      instanceJobs = lastRuns;
    },
    watchLogOutput(droppedLines) {
      logDrops = droppedLines;
    },
    async expose() {
      await sample();
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
