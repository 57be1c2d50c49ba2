import { defineDomain } from '#server/platform/domain/define-domain.ts';
import type { FeaturePorts } from '../feature-ports.ts';
import { dashboardConsoleRoutes } from './dashboard-console-routes.ts';

/** The founder's morning figures (decision 234): the console's home page and `admin dashboard`. */
export const dashboardDomain = defineDomain<FeaturePorts, unknown>({
  name: 'dashboard',
  consoleRoutes: [dashboardConsoleRoutes],
  adminCommands: async () => (await import('./dashboard-admin-commands.ts')).dashboardAdminCommands,
});
