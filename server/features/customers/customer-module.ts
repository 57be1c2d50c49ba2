import { defineDomain } from '#server/platform/domain/define-domain.ts';
import type { FeaturePorts } from '../feature-ports.ts';
import { customerConsoleRoutes } from './customer-console-routes.ts';

/** Support's view of a customer (decision 227): the one search and the whole story. */
export const customerDomain = defineDomain<FeaturePorts, unknown>({
  name: 'customers',
  consoleRoutes: [customerConsoleRoutes],
  adminCommands: async () => (await import('./customer-admin-commands.ts')).customerAdminCommands,
});
