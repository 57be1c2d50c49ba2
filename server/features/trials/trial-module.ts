import { defineDomain } from '#server/platform/domain/define-domain.ts';
import { trialRoutes } from './trial-routes.ts';

/** Trial licences and the `referral-codes` commands. */
export const trialDomain = defineDomain({
  name: 'trials',
  routes: [trialRoutes],
  adminCommands: async () =>
    (await import('./referral-code-admin-commands.ts')).referralCodeAdminCommands,
});
