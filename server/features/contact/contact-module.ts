import { defineDomain } from '#server/platform/domain/define-domain.ts';
import { contactRoutes } from './contact-routes.ts';

/** The contact form and the `contact-messages` commands. */
export const contactDomain = defineDomain({
  name: 'contact',
  routes: [contactRoutes],
  adminCommands: async () =>
    (await import('./contact-admin-commands.ts')).contactMessageAdminCommands,
});
