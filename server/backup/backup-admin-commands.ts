import { stat } from 'node:fs/promises';
import { AdminError, EXIT_OK, type AdminCommand } from '../admin/command.ts';
import { BackupError, databaseDataRowCount, restoreBackup, writeBackup } from './backup-file.ts';

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const backup: AdminCommand = {
  name: 'backup',
  summary: 'Write the whole database to a file (gzip JSON lines)',
  details: [
    'Reads every table in one consistent snapshot. On PostgreSQL this works while the servers run;',
    'the embedded database can only be opened by one process, so stop the server first (the',
    'command says so if it is running). The file holds every customer address, SECRET_KEY and the',
    'licence signing key: it is written readable by its owner only (0600); keep it encrypted, off',
    'the machine and with restricted access. See the README for how often.',
  ].join('\n'),
  arguments: [{ name: 'file', description: 'Where to write, e.g. orgsmith-2026-11-25.backup.gz' }],
  async run(context, { args }) {
    const file = context.resolvePath(args[0] ?? '');
    const started = Date.now();
    const db = await context.database();
    const summary = await writeBackup(db, file, {
      database: context.env.DATABASE_URL ? 'postgres' : 'pglite',
      now: context.now(),
    });
    const size = (await stat(file)).size;
    context.io.out(
      `Backed up ${summary.rows} rows of ${summary.tables} tables to ${file} (${mb(size)} compressed, ${mb(summary.bytes)} of JSON) in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
    );
    return EXIT_OK;
  },
};

const restore: AdminCommand = {
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

export const backupAdminCommands: readonly AdminCommand[] = [backup, restore];
