import { defineDomain } from '#server/platform/domain/define-domain.ts';

/** Rates to the euro for documents in other currencies (decision 221): the `fx-rates` commands. */
export const fxRateDomain = defineDomain({
  name: 'fx-rates',
  adminCommands: async () => (await import('./fx-rate-admin-commands.ts')).fxRateAdminCommands,
});
