import { defineDomain } from '#server/platform/domain/define-domain.ts';
import { releaseFileRoutes } from './release-file-routes.ts';
import { releaseRoutes } from './release-routes.ts';

/** The release catalog, its signed files and the `releases` commands. */
export const releaseDomain = defineDomain({
  name: 'releases',
  routes: [releaseRoutes, releaseFileRoutes],
  adminCommands: async () => (await import('./release-admin-commands.ts')).releaseAdminCommands,
});
