import type { AppDeps } from '../deps.ts';
import { defineDomain } from '../platform/domain/define-domain.ts';
import { startBackupSchedule } from './schedule-backups.ts';
import { startBackupSocket } from './serve-backup-socket.ts';
import { createBackupTaker } from './take-backup.ts';

/**
 * Backups: the `backup` and `restore` commands, and in the server the scheduled backups and, on
 * the embedded database, the socket the `backup` command asks (decision 130).
 */
export const backupDomain = defineDomain<never, { deps: AppDeps }>({
  name: 'backup',
  adminCommands: async () => (await import('./backup-admin-commands.ts')).backupAdminCommands,
  jobs: [
    {
      name: 'backups',
      start({ deps }) {
        const { database, env, logger } = deps;
        const stoppers: Array<() => Promise<void>> = [];
        // One queue for every backup this process writes (decision 130).
        const backups = createBackupTaker({
          db: database.db,
          kind: database.kind,
          clock: deps.clock,
          dataDir: env.DATA_DIR,
        });
        if (database.kind === 'pglite') {
          const socket = startBackupSocket({ dataDir: env.DATA_DIR, taker: backups, logger });
          stoppers.push(() => socket.stop());
        }
        if (env.BACKUP_DIR && env.BACKUP_EVERY) {
          stoppers.push(
            startBackupSchedule({
              db: database.db,
              taker: backups,
              dir: env.BACKUP_DIR,
              everyMs: env.BACKUP_EVERY,
              keep: env.BACKUP_KEEP,
              clock: deps.clock,
              logger,
            }),
          );
        }
        return async () => {
          await Promise.all(stoppers.map((stop) => stop()));
        };
      },
    },
  ],
});
