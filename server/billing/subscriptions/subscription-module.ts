import type { BillingPorts } from '#server/billing/billing-ports.ts';
import { defineDomain } from '#server/platform/domain/define-domain.ts';
import { billingJobs } from './billing-jobs.ts';

/**
 * Subscriptions: what turns a subscription's state into a licence's — the hourly lifecycle sweep
 * and invoice reminders and, with the local provider, its billing engine (decision 174).
 */
export const subscriptionDomain = defineDomain<never, { deps: BillingPorts }>({
  name: 'subscriptions',
  jobs: ({ deps }) => billingJobs(deps),
});
