import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Database } from '../platform/db/database.ts';
import type { Logger } from '../platform/logger.ts';
import { formatBackupInterval } from './backup-interval.ts';
import { createBackupStateRepository } from './backup-state-repository.ts';
import { rotateBackups, scheduledBackupName } from './rotate-backups.ts';
import type { BackupTaker } from './take-backup.ts';

/** Checked at least this often, so a claim another instance gave back is taken soon. */
const LONGEST_WAIT_MS = 60_000;

/**
 * Scheduled backups (decision 130): every `everyMs`, one instance claims the backup in the
 * database (the first whose claim finds the last one at least that old), writes
 * `orgsmith-<UTC time>.jsonl.gz` into `dir` through the taker (0600, atomic) and deletes the
 * oldest beyond `keep`. A failed backup gives its claim back and is tried again after
 * min(every, 1 min). Returns the stopper, which waits for a backup under way.
 */
export function startBackupSchedule(options: {
  db: Database;
  taker: BackupTaker;
  dir: string;
  everyMs: number;
  keep: number;
  clock: () => Date;
  logger: Logger;
}): () => Promise<void> {
  const { taker, everyMs, keep, clock } = options;
  const dir = path.resolve(options.dir);
  const logger = options.logger.child({ worker: 'backup-schedule' });
  const state = createBackupStateRepository(options.db);
  const retryMs = Math.min(everyMs, LONGEST_WAIT_MS);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  /** Takes the backup if it is due and ours; returns how long to wait before looking again. */
  async function round(): Promise<number> {
    const now = clock();
    const previous = await state.scheduledAt();
    if (!(await state.claimScheduled(now, new Date(now.getTime() - everyMs)))) {
      const last = (await state.scheduledAt()) ?? now;
      return last.getTime() + everyMs - clock().getTime();
    }
    try {
      // Owner-only: the directory holds every customer address and the service's secrets.
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const taken = await taker.take(path.join(dir, scheduledBackupName(now)));
      const deleted = await rotateBackups(dir, keep);
      logger.info(
        { file: taken.file, rows: taken.rows, size: taken.size, ms: Math.round(taken.ms), deleted },
        'scheduled backup written',
      );
      return everyMs - (clock().getTime() - now.getTime());
    } catch (error) {
      logger.error({ err: error, dir }, 'scheduled backup failed; trying again');
      await state.releaseClaim(now, previous);
      return retryMs;
    }
  }

  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(run, Math.min(Math.max(ms, 0), LONGEST_WAIT_MS));
    timer.unref();
  };
  function run() {
    running = round()
      .catch((error: unknown) => {
        logger.warn({ err: error }, 'backup schedule: the database did not answer');
        return retryMs;
      })
      .then(schedule)
      .finally(() => {
        running = undefined;
      });
  }

  logger.info({ dir, every: formatBackupInterval(everyMs), keep }, 'backup schedule started');
  run();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
