import type { AppDeps } from '#server/deps.ts';
import type { Logger } from '#server/platform/logger.ts';
import {
  LOCAL_BILLING_INTERVAL_MS,
  runLocalBilling,
} from '#server/billing/payments/local/local-billing-worker.ts';
import { syncDepsOf } from './sync-subscription.ts';
import { sweepInvoiceReminders } from './sweep-invoice-reminders.ts';
import { sweepLicenceLifecycle } from './sweep-licence-lifecycle.ts';

export const LIFECYCLE_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** Runs `task` now and then every `intervalMs`, one run at a time; the stopper awaits a running one. */
function every(
  intervalMs: number,
  task: () => Promise<unknown>,
  logger: Logger,
): () => Promise<void> {
  let running: Promise<void> | undefined;
  let stopped = false;
  const run = () => {
    if (running || stopped) return;
    running = task()
      .then(
        () => undefined,
        (error: unknown) => logger.error({ err: error }, 'job failed'),
      )
      .finally(() => {
        running = undefined;
      });
  };
  const first = setTimeout(run, 1000);
  const timer = setInterval(run, intervalMs);
  first.unref();
  timer.unref();
  return async () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(timer);
    await running;
  };
}

/**
 * The licence lifecycle job (hourly) and, with the local payment provider, its billing engine
 * (every minute). Both are safe with several instances: they claim rows with SKIP LOCKED.
 */
export function startBillingJobs(deps: AppDeps): () => Promise<void> {
  const logger = deps.logger.child({ worker: 'licence-lifecycle' });
  const stoppers = [
    every(
      LIFECYCLE_SWEEP_INTERVAL_MS,
      async () => {
        const report = await sweepLicenceLifecycle(syncDepsOf(deps));
        if (report.scheduledForDeletion + report.deleted + report.resynced + report.failed > 0) {
          logger.info(report, 'licence lifecycle sweep');
        }
        const invoices = await sweepInvoiceReminders(syncDepsOf(deps));
        if (invoices.reminded + invoices.suspended + invoices.failed > 0) {
          logger.info(invoices, 'invoice reminder sweep');
        }
      },
      logger,
    ),
  ];
  if (deps.payments.name === 'local') {
    stoppers.push(
      every(
        LOCAL_BILLING_INTERVAL_MS,
        () => runLocalBilling(deps),
        logger.child({ job: 'local-billing' }),
      ),
    );
  }
  logger.info({ provider: deps.payments.name }, 'licence lifecycle worker started');
  return async () => {
    await Promise.all(stoppers.map((stop) => stop()));
  };
}
