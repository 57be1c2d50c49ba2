import type { ServicePorts } from '#server/platform/ports/service-ports.ts';
import type { Logger } from '../platform/logger.ts';
import type { BackupCommandSettings } from './backup-admin-commands.ts';
import { defineDomain } from '../platform/domain/define-domain.ts';
import { backupScheduleJob } from './schedule-backups.ts';
import type { BackupTaker } from './take-backup.ts';

/**
 * Backups: the `backup` and `restore` commands, and in the server the scheduled backups
 * (decision 130) through the process's one backup queue, which the embedded database's backup
 * socket shares (started by the runtime).
 */
/** What scheduling backups reads of the running service. */
interface BackupJobContext {
  deps: {
    env: {
      BACKUP_DIR?: string | undefined;
      BACKUP_EVERY?: number | undefined;
      BACKUP_KEEP: number;
    };
    clock: () => Date;
    logger: Logger;
  };
  backupTaker: BackupTaker;
}

export const backupDomain = defineDomain<ServicePorts, BackupJobContext, BackupCommandSettings>({
  name: 'backup',
  adminCommands: async () => (await import('./backup-admin-commands.ts')).backupAdminCommands,
  jobs: ({ deps, backupTaker }) =>
    deps.env.BACKUP_DIR && deps.env.BACKUP_EVERY
      ? [
          backupScheduleJob({
            taker: backupTaker,
            dir: deps.env.BACKUP_DIR,
            everyMs: deps.env.BACKUP_EVERY,
            keep: deps.env.BACKUP_KEEP,
            clock: deps.clock,
            logger: deps.logger,
          }),
        ]
      : [],
});
