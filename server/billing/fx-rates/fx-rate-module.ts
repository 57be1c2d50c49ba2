import type { BillingPorts } from '#server/billing/billing-ports.ts';
import { defineDomain } from '#server/platform/domain/define-domain.ts';
import type { Job } from '#server/platform/jobs/job.ts';
import { recordEcbRates } from './record-ecb-rates.ts';

const HOUR_MS = 60 * 60 * 1000;

/**
 * Records the ECB's new rates every hour when ECB_RATES_URL is set (decision 221): the ECB
 * publishes once a working day at about 16:00 CET, so a day's rate is in within the hour. It
 * never replaces a rate an operator recorded differently; it logs the difference.
 */
function ecbRatesJob(deps: BillingPorts, url: string): Job {
  const logger = deps.logger.child({ worker: 'ecb-rates' });
  return {
    name: 'ecb-rates',
    scope: 'cluster',
    everyMs: HOUR_MS,
    async run() {
      const results = await recordEcbRates(deps.database.db, {
        url,
        now: deps.clock(),
        recordedBy: 'ecb-rates job',
        replace: false,
      });
      const recorded = results.filter((result) => result.outcome === 'recorded');
      const conflicts = results.filter((result) => result.outcome === 'conflict');
      if (recorded.length > 0) logger.info({ rates: recorded }, 'ECB reference rates recorded');
      if (conflicts.length > 0) {
        logger.warn({ rates: conflicts }, 'the ECB publishes another rate than the one recorded');
      }
      return recorded.length;
    },
  };
}

/** Rates to the euro for documents in other currencies (decision 221): the `fx-rates` commands and the hourly ECB job. */
export const fxRateDomain = defineDomain<BillingPorts, { deps: BillingPorts }>({
  name: 'fx-rates',
  adminCommands: async () => (await import('./fx-rate-admin-commands.ts')).fxRateAdminCommands,
  jobs: ({ deps }) => (deps.env.ECB_RATES_URL ? [ecbRatesJob(deps, deps.env.ECB_RATES_URL)] : []),
});
