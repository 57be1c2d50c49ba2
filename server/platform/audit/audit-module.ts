import type { ServicePorts } from '#server/platform/ports/service-ports.ts';
import { defineDomain } from '../domain/define-domain.ts';

/** The audit log no one can edit (decision 224): its `audit` commands. */
export const auditDomain = defineDomain<ServicePorts, unknown>({
  name: 'audit',
  adminCommands: async () => (await import('./audit-admin-commands.ts')).auditAdminCommands,
});
