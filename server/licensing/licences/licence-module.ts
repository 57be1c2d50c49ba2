import type { AppDeps } from '#server/deps.ts';
import { defineDomain } from '#server/platform/domain/define-domain.ts';
import { startLifecycleWorker } from './lifecycle-worker.ts';

/** Licences: their lifecycle worker and the `licences` commands. */
export const licenceDomain = defineDomain<never, { deps: AppDeps }>({
  name: 'licences',
  adminCommands: async () => (await import('./licence-admin-commands.ts')).licenceAdminCommands,
  jobs: [{ name: 'licence lifecycle', start: ({ deps }) => startLifecycleWorker(deps) }],
});
