import { defineDomain } from '#server/platform/domain/define-domain.ts';
import { quoteRoutes } from './quote-routes.ts';

/** PDF quotes and the `quotes` commands. */
export const quoteDomain = defineDomain({
  name: 'quotes',
  routes: [quoteRoutes],
  adminCommands: async () => (await import('./quote-admin-commands.ts')).quoteAdminCommands,
});
