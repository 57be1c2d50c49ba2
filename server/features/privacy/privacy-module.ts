import type { Database } from '#server/platform/db/database.ts';
import { defineDomain } from '#server/platform/domain/define-domain.ts';
import type { Logger } from '#server/platform/logger.ts';
import type { FeaturePorts } from '../feature-ports.ts';
import type { PrivacySettings } from './privacy-admin-commands.ts';
import { retentionJob } from './enforce-retention.ts';

/** What the retention job reads of the running service. */
interface PrivacyJobContext {
  deps: {
    database: { db: Database };
    env: { DATA_DIR: string };
    clock: () => Date;
    logger: Logger;
  };
}

/**
 * Privacy: the retention job that keeps data no longer than docs/retention.md says (decision
 * 191), and the `privacy export` and `privacy erase` commands (decision 192).
 */
export const privacyDomain = defineDomain<FeaturePorts, PrivacyJobContext, PrivacySettings>({
  name: 'privacy',
  adminCommands: async () => (await import('./privacy-admin-commands.ts')).privacyAdminCommands,
  jobs: ({ deps }) => [
    retentionJob({
      db: deps.database.db,
      dataDir: deps.env.DATA_DIR,
      clock: deps.clock,
      logger: deps.logger,
    }),
  ],
});
