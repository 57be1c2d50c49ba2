import { defineDomain } from '../domain/define-domain.ts';

/** The audit log no one can edit (decision 224): its `audit` commands. */
export const auditDomain = defineDomain<never, unknown>({
  name: 'audit',
  adminCommands: async () => (await import('./audit-admin-commands.ts')).auditAdminCommands,
});
