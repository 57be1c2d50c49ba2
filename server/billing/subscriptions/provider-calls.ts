import type { Job } from '#server/platform/jobs/job.ts';
import { finishedSubscription } from './lifecycle-rules.ts';
import { createProviderCallRepository, type ProviderCall } from './provider-call-repository.ts';
import { syncSubscription, type SyncDeps } from './sync-subscription.ts';

/** Provider calls under way at once: far below Stripe's 100 a second (decisions 238, 246). */
export const PROVIDER_CONCURRENCY = 8;
/** Calls claimed per round trip. */
const CLAIM_BATCH = 100;
/** How long a claim holds: a call that takes longer than this is made again by another worker. */
export const PROVIDER_CALL_LEASE_MS = 5 * 60_000;
/** Attempts before a call is given up and left for the operators (decision 246). */
export const PROVIDER_CALL_MAX_ATTEMPTS = 10;
const FIRST_RETRY_MS = 60_000;
const MAX_RETRY_MS = 6 * 60 * 60_000;
/** How often the queue is looked at for retries coming due (the sweep also works it at once). */
export const PROVIDER_CALLS_INTERVAL_MS = 60_000;

/** Backoff after the nth failed attempt: 1, 2, 4 … minutes, at most 6 hours. */
export function providerRetryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);
}

export interface ProviderCallReport {
  cancelled: number;
  resynced: number;
  /** Attempts that failed (retried later or given up). */
  failed: number;
  /** Calls given up after their last attempt. */
  gaveUp: number;
}

/** Runs `work` on every item, at most `limit` at once, in order of start. */
export async function eachAtMost<T>(
  limit: number,
  items: readonly T[],
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

async function makeCall(deps: SyncDeps, call: ProviderCall): Promise<void> {
  if (call.kind === 'cancel') {
    // Stop the provider from charging for a licence that can no longer come back, then mirror it.
    try {
      await deps.payments.cancelSubscription(call.subscriptionId);
    } catch (error) {
      // Made before (a lease ran out while the provider was slow), or ended meanwhile: done.
      const now = await deps.payments.retrieveSubscription(call.subscriptionId).catch(() => null);
      if (!now || !finishedSubscription.has(now.status)) throw error;
    }
  }
  await syncSubscription(deps, call.subscriptionId);
}

/**
 * Makes every provider call due now (decision 246), claimed 100 at a time and made 8 at once,
 * outside any transaction. A success deletes the call; a failure is due again after a backoff, or
 * given up after the last attempt (logged as an error, kept with its error for the operators).
 */
export async function runProviderCalls(
  deps: SyncDeps,
  stopping: () => boolean = () => false,
): Promise<ProviderCallReport> {
  const report: ProviderCallReport = { cancelled: 0, resynced: 0, failed: 0, gaveUp: 0 };
  const calls = createProviderCallRepository(deps.db);
  while (!stopping()) {
    const now = deps.clock();
    const claimed = await calls.claimDue(now, CLAIM_BATCH, PROVIDER_CALL_LEASE_MS);
    await eachAtMost(PROVIDER_CONCURRENCY, claimed, async (call) => {
      try {
        await makeCall(deps, call);
        await calls.succeeded(call);
        if (call.kind === 'cancel') report.cancelled++;
        else report.resynced++;
      } catch (error) {
        report.failed++;
        const message = error instanceof Error ? error.message : String(error);
        const last = call.attempts >= PROVIDER_CALL_MAX_ATTEMPTS;
        const retryAt = last
          ? null
          : new Date(deps.clock().getTime() + providerRetryDelayMs(call.attempts));
        if (last) report.gaveUp++;
        const fields = { err: error, subscriptionId: call.subscriptionId, attempts: call.attempts };
        if (last) deps.logger.error(fields, `gave up the provider call "${call.kind}"`);
        else deps.logger.warn({ ...fields, retryAt }, `provider call "${call.kind}" failed`);
        // A record that fails leaves the lease to run out: the call is made again then.
        await calls
          .attemptFailed(call, message, retryAt)
          .catch((recordError: unknown) =>
            deps.logger.error({ err: recordError }, 'could not record a failed provider call'),
          );
      }
    });
    if (claimed.length < CLAIM_BATCH) break;
  }
  return report;
}

/** Retries coming due between sweeps: once a minute across the instances (decision 246). */
export function providerCallsJob(deps: SyncDeps): Job {
  return {
    name: 'provider-calls',
    scope: 'cluster',
    everyMs: PROVIDER_CALLS_INTERVAL_MS,
    async run(signal) {
      const report = await runProviderCalls(deps, () => signal.aborted);
      const rows = report.cancelled + report.resynced + report.failed;
      if (rows > 0) deps.logger.info(report, 'provider calls');
      return rows;
    },
  };
}
