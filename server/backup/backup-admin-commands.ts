import { stat } from 'node:fs/promises';
import {
  AdminError,
  EXIT_OK,
  type AdminCommand,
  type CommandSettings,
} from '../platform/commands/command.ts';
import { BackupError, databaseDataRowCount, restoreBackup } from './backup-file.ts';
import { BackupRefused } from './check-backup-path.ts';
import { requestServerBackup } from './request-server-backup.ts';
import { createBackupTaker, type TakenBackup } from './take-backup.ts';

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** What the backup commands read of the environment. */
export interface BackupCommandSettings extends CommandSettings {
  DATABASE_URL?: string | undefined;
  DATA_DIR: string;
}

const backup: AdminCommand<BackupCommandSettings> = {
  name: 'backup',
  summary: 'Write the whole database to a file (gzip JSON lines)',
  details: [
    'Reads every table in one consistent snapshot, while the servers run. On the embedded',
    'database, which only one process may open, the command asks the server running on DATA_DIR',
    'to write the file, through its admin socket ($DATA_DIR/run/admin.sock); with no server',
    'running it opens the database itself. A relative path is taken from the directory you run',
    'the command in; its directory must exist. The file holds every customer address, SECRET_KEY',
    'and the licence signing key: it is written readable by its owner only (0600); keep it',
    'encrypted, off the machine and with restricted access. See docs/operations.md for how often.',
  ].join('\n'),
  arguments: [{ name: 'file', description: 'Where to write, e.g. orgsmith-2026-11-25.jsonl.gz' }],
  // It asks the running server itself, through the backup request of the admin socket.
  whileServing: 'here',
  async run(context, { args }) {
    const file = context.resolvePath(args[0] ?? '');
    const report = (taken: Omit<TakenBackup, 'at' | 'migrations'>, by: string) =>
      context.io.out(
        `Backed up ${taken.rows} rows of ${taken.tables} tables to ${taken.file} (${mb(taken.size)} compressed, ${mb(taken.bytes)} of JSON) in ${seconds(taken.ms)}${by}.`,
      );
    if (context.embeddedDataDir) {
      const answer = await requestServerBackup(context.embeddedDataDir, file).catch(
        (error: unknown) => {
          throw new AdminError(error instanceof Error ? error.message : String(error));
        },
      );
      if (answer?.ok === false) throw new AdminError(answer.error);
      if (answer) {
        report(answer, ', written by the running server');
        return EXIT_OK;
      }
    }
    const taker = createBackupTaker({
      db: await context.database(),
      kind: context.env.DATABASE_URL ? 'postgres' : 'pglite',
      clock: context.now,
      dataDir: context.env.DATA_DIR,
    });
    try {
      report(await taker.take(file), '');
    } catch (error) {
      if (error instanceof BackupRefused) throw new AdminError(error.message);
      throw error;
    }
    return EXIT_OK;
  },
};

const restore: AdminCommand<BackupCommandSettings> = {
  name: 'restore',
  summary: 'Replace the whole database with a backup',
  details: [
    'Empties every table and loads the backup, in one transaction: all or nothing. Stop every',
    'server first (they would keep writing while the restore runs). A database that holds data is',
    'only replaced with --replace; a fresh one (only the rows its migrations wrote) needs none.',
    'Whatever happened after the backup was made is lost. A backup from an older version is',
    'restored at its own schema version, then the later migrations run over its rows. Errors',
    'name the line, table and constraint, never a value from the file.',
  ].join('\n'),
  arguments: [{ name: 'file', description: 'A file written by the backup command' }],
  options: {
    replace: { type: 'boolean', description: 'Replace a database that already holds data' },
  },
  whileServing: 'stop-first',
  async run(context, { args, options }) {
    const file = context.resolvePath(args[0] ?? '');
    await stat(file).catch(() => {
      throw new AdminError(`No such file: ${file}`);
    });
    const db = await context.database();
    const before = await databaseDataRowCount(db);
    if (before > 0 && options.replace !== true) {
      throw new AdminError(
        `The database holds ${before} rows. Restoring replaces all of them with the backup; run again with --replace to do that.`,
      );
    }
    const started = Date.now();
    try {
      const summary = await restoreBackup(db, file);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const forward =
        summary.migrated.length > 0
          ? ` at its own schema version, then migrated it forward (${summary.migrated.join(', ')})`
          : '';
      context.io.out(
        `Restored ${summary.rows} rows of ${summary.tables} tables from ${file}${forward} in ${seconds} s.`,
      );
    } catch (error) {
      if (error instanceof BackupError)
        throw new AdminError(`${error.message} Nothing was changed.`);
      throw error;
    }
    return EXIT_OK;
  },
};

export const backupAdminCommands: readonly AdminCommand<BackupCommandSettings>[] = [
  backup,
  restore,
];
