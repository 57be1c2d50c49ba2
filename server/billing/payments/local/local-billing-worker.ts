import type { Job } from '#server/platform/jobs/job.ts';
import type { BillingPorts } from '#server/billing/billing-ports.ts';
import { handlePaymentEvent, syncDepsOf } from '#server/billing/subscriptions/sync-subscription.ts';
import { advanceLocalSubscriptions } from './advance-local-subscriptions.ts';

/** How often the local billing engine looks for renewals and retries that are due. */
export const LOCAL_BILLING_INTERVAL_MS = 60 * 1000;

/**
 * One run of the local provider's billing engine: renewals, retries and period-end
 * cancellations due at the clock's time, each followed by the events Stripe would send.
 */
export async function runLocalBilling(deps: BillingPorts): Promise<number> {
  if (deps.payments.name !== 'local') return 0;
  const events = await advanceLocalSubscriptions({ db: deps.database.db, clock: deps.clock });
  const sync = syncDepsOf(deps);
  for (const event of events) await handlePaymentEvent(sync, event);
  return events.length;
}

/** The local provider's billing engine as a job: every minute, once across the instances (decision 174). */
export function localBillingJob(deps: BillingPorts): Job {
  return {
    name: 'local-billing',
    scope: 'cluster',
    everyMs: LOCAL_BILLING_INTERVAL_MS,
    run: () => runLocalBilling(deps),
  };
}
