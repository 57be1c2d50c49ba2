import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Job } from '../platform/jobs/job.ts';
import type { Logger } from '../platform/logger.ts';
import { formatBackupInterval } from './backup-interval.ts';
import { rotateBackups, scheduledBackupName } from './rotate-backups.ts';
import type { BackupTaker } from './take-backup.ts';

/**
 * Scheduled backups (decision 130) as a cluster job (decision 174): every `everyMs` one instance
 * claims the run in `job_runs`, writes `orgsmith-<UTC time>.jsonl.gz` into `dir` through the taker
 * (0600, atomic) and deletes the oldest beyond `keep`. A failed backup is tried again after
 * min(every, 1 min), on whichever instance claims it first; so is one whose instance died.
 */
export function backupScheduleJob(options: {
  taker: BackupTaker;
  dir: string;
  everyMs: number;
  keep: number;
  clock: () => Date;
  logger: Logger;
}): Job {
  const { taker, everyMs, keep, clock } = options;
  const dir = path.resolve(options.dir);
  const logger = options.logger.child({ worker: 'backup-schedule' });
  logger.info({ dir, every: formatBackupInterval(everyMs), keep }, 'backup schedule started');
  return {
    name: 'scheduled-backup',
    scope: 'cluster',
    everyMs,
    firstAfterMs: 0,
    async run() {
      try {
        // Owner-only: the directory holds every customer address and the service's secrets.
        await mkdir(dir, { recursive: true, mode: 0o700 });
        const taken = await taker.take(path.join(dir, scheduledBackupName(clock())));
        const deleted = await rotateBackups(dir, keep);
        logger.info(
          {
            file: taken.file,
            rows: taken.rows,
            size: taken.size,
            ms: Math.round(taken.ms),
            deleted,
          },
          'scheduled backup written',
        );
        return taken.rows;
      } catch (error) {
        logger.error({ err: error, dir }, 'scheduled backup failed; trying again');
        throw error;
      }
    },
  };
}
