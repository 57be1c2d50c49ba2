import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Database } from '../platform/db/database.ts';
import { writeBackup, type BackupSummary } from './backup-file.ts';
import { createBackupStateRepository } from './backup-state-repository.ts';
import { checkBackupPath } from './check-backup-path.ts';

export interface TakenBackup extends BackupSummary {
  file: string;
  /** Bytes on disk (compressed). */
  size: number;
  ms: number;
  /** When its snapshot was taken. */
  at: Date;
}

/** Writes backups one at a time: the operator's, the socket's and the schedule's share one queue. */
export interface BackupTaker {
  take(file: string): Promise<TakenBackup>;
  /** Resolves once every backup asked for so far has finished. */
  idle(): Promise<void>;
}

/** Where no backup may be written: the embedded database's files and the socket beside them. */
export function directoriesOfDatabase(dataDir: string): string[] {
  return [path.resolve(dataDir, 'pglite'), path.resolve(dataDir, 'run')];
}

/**
 * The one way the service writes a backup (decision 130): the path is checked first, the file is
 * written owner-only and atomically from one snapshot (writeBackup), and its time recorded for
 * /readyz. Requests queue, so two never read the database or write one file at once.
 */
export function createBackupTaker(options: {
  db: Database;
  kind: 'pglite' | 'postgres';
  clock: () => Date;
  dataDir: string;
}): BackupTaker {
  const { db, kind, clock } = options;
  const forbidden = directoriesOfDatabase(options.dataDir);
  let queue: Promise<unknown> = Promise.resolve();

  async function takeNow(file: string): Promise<TakenBackup> {
    await checkBackupPath(file, forbidden);
    const started = performance.now();
    const at = clock();
    const summary = await writeBackup(db, file, { database: kind, now: at });
    const { size } = await stat(file);
    // The file is complete either way; the record only feeds /readyz's age of the newest backup.
    await createBackupStateRepository(db)
      .recordNewest(at)
      .catch(() => undefined);
    return { ...summary, file, size, ms: performance.now() - started, at };
  }

  return {
    take(file) {
      const taken = queue.then(() => takeNow(file));
      queue = taken.catch(() => undefined);
      return taken;
    },
    async idle() {
      await queue;
    },
  };
}
