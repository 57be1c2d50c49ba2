import type { BillingPorts } from '#server/billing/billing-ports.ts';
import type { Job } from '#server/platform/jobs/job.ts';
import { syncDepsOf } from './sync-subscription.ts';
import { sweepInvoiceReminders } from './sweep-invoice-reminders.ts';
import { providerCallsJob } from './provider-calls.ts';
import { sweepLicenceLifecycle } from './sweep-licence-lifecycle.ts';

export const LIFECYCLE_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * The subscriptions' jobs, each once per period across the instances (decision 174): the hourly
 * licence lifecycle sweep and invoice reminders, and every minute the provider calls coming due
 * again (decision 246). Their rows are also claimed with SKIP LOCKED, so
 * an overlap changes nothing twice. (The local provider's billing engine is the payments
 * manifest's job.)
 */
export function billingJobs(deps: BillingPorts): Job[] {
  const logger = deps.logger.child({ worker: 'billing' });
  return [
    {
      name: 'licence-lifecycle',
      scope: 'cluster',
      everyMs: LIFECYCLE_SWEEP_INTERVAL_MS,
      async run() {
        const report = await sweepLicenceLifecycle(syncDepsOf(deps));
        const rows =
          report.scheduledForDeletion +
          report.deleted +
          report.cancelled +
          report.resynced +
          report.failed;
        if (rows > 0) logger.info(report, 'licence lifecycle sweep');
        return rows;
      },
    },
    {
      name: 'invoice-reminders',
      scope: 'cluster',
      everyMs: LIFECYCLE_SWEEP_INTERVAL_MS,
      async run() {
        const report = await sweepInvoiceReminders(syncDepsOf(deps));
        const rows = report.reminded + report.suspended + report.failed;
        if (rows > 0) logger.info(report, 'invoice reminder sweep');
        return rows;
      },
    },
    providerCallsJob({ ...syncDepsOf(deps), logger }),
  ];
}
