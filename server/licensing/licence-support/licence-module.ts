import { defineDomain } from '#server/platform/domain/define-domain.ts';

/** Licences: the `licences` commands (their lifecycle jobs belong to billing's subscriptions). */
export const licenceDomain = defineDomain({
  name: 'licences',
  adminCommands: async () => (await import('./licence-admin-commands.ts')).licenceAdminCommands,
});
