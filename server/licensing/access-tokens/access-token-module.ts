import { defineDomain } from '#server/platform/domain/define-domain.ts';
import { accessTokenRoutes } from './access-token-routes.ts';

/** Access tokens for CI and the `access-tokens` commands. */
export const accessTokenDomain = defineDomain({
  name: 'access-tokens',
  routes: [accessTokenRoutes],
  adminCommands: async () =>
    (await import('./access-token-admin-commands.ts')).accessTokenAdminCommands,
});
