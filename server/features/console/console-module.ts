import { defineDomain } from '#server/platform/domain/define-domain.ts';
import type { FeaturePorts } from '../feature-ports.ts';
import { consoleRoutes } from './console-routes.ts';
import type { OperatorCommandSettings } from './operator-admin-commands.ts';

/**
 * The operator console (decision 226): its endpoints on the console's own listener, and the
 * `operators` commands.
 */
export const consoleDomain = defineDomain<FeaturePorts, unknown, OperatorCommandSettings>({
  name: 'console',
  consoleRoutes: [consoleRoutes],
  adminCommands: async () => (await import('./operator-admin-commands.ts')).operatorAdminCommands,
});
