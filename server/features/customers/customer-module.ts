import { defineDomain } from '#server/platform/domain/define-domain.ts';

/** Support's view of a customer (decision 227): the one search and the whole story. */
export const customerDomain = defineDomain<never, unknown>({
  name: 'customers',
  adminCommands: async () => (await import('./customer-admin-commands.ts')).customerAdminCommands,
});
