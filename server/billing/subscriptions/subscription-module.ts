import type { BillingPorts } from '#server/billing/billing-ports.ts';
import { defineDomain } from '#server/platform/domain/define-domain.ts';
import { billingJobs } from './billing-jobs.ts';
import { keepTrialRoutes } from './keep-trial-routes.ts';

/**
 * Subscriptions: what turns a subscription's state into a licence's — the hourly lifecycle sweep
 * and invoice reminders and, with the local provider, its billing engine (decision 174); and the
 * keep-your-trial-key link's button (decision 213).
 */
export const subscriptionDomain = defineDomain<BillingPorts, { deps: BillingPorts }>({
  name: 'subscriptions',
  routes: [keepTrialRoutes],
  jobs: ({ deps }) => billingJobs(deps),
});
