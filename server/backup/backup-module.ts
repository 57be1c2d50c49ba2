import type { AppDeps } from '../deps.ts';
import type { Env } from '../env.ts';
import { defineDomain } from '../platform/domain/define-domain.ts';
import { backupScheduleJob } from './schedule-backups.ts';
import type { BackupTaker } from './take-backup.ts';

/**
 * Backups: the `backup` and `restore` commands, and in the server the scheduled backups
 * (decision 130) through the process's one backup queue, which the embedded database's backup
 * socket shares (started by the runtime).
 */
export const backupDomain = defineDomain<never, { deps: AppDeps; backupTaker: BackupTaker }, Env>({
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
