import type { Database } from '#server/platform/db/database.ts';
import { deleteMailFiles, listMailFiles } from '#server/platform/email/mail-files.ts';
import { createOutboxRepository } from '#server/platform/email/outbox-repository.ts';
import type { Job } from '#server/platform/jobs/job.ts';
import type { Logger } from '#server/platform/logger.ts';
import {
  deleteRetentionBatch,
  RETENTION_BATCH_SIZE,
  retentionRules,
} from './retention-repository.ts';
import { daysBefore, retentionPeriods } from './retention-policy.ts';

export const RETENTION_INTERVAL_MS = 60 * 60 * 1000;

/** Rows deleted per rule in one run. */
export type RetentionReport = Record<string, number>;

/**
 * Deletes every row past its period (decision 191), rule by rule in batches of `batchSize`
 * (each its own statement and transaction). An aborted run stops between batches; the next
 * run carries on where the predicates leave it.
 */
export async function enforceRetention(
  db: Database,
  now: Date,
  options: { signal?: AbortSignal; batchSize?: number } = {},
): Promise<RetentionReport> {
  const batchSize = options.batchSize ?? RETENTION_BATCH_SIZE;
  const report: RetentionReport = {};
  for (const rule of retentionRules(now)) {
    let deleted = 0;
    for (;;) {
      if (options.signal?.aborted) return report;
      const batch = await deleteRetentionBatch(db, rule, batchSize);
      deleted += batch;
      if (batch < batchSize) break;
    }
    if (deleted > 0) report[rule.name] = deleted;
  }
  return report;
}

/**
 * Deletes the `.eml` files (written when no SMTP_URL is set) of e-mails made longer ago than an
 * e-mail's record is kept (decision 211); returns how many.
 */
export async function enforceMailFileRetention(dataDir: string, now: Date): Promise<number> {
  const cutoff = daysBefore(now, retentionPeriods.emailDays);
  const old = (await listMailFiles(dataDir)).filter((mail) => mail.createdAt < cutoff);
  return deleteMailFiles(old);
}

/** The retention job: hourly, once across the instances (decision 174). */
export function retentionJob(deps: {
  db: Database;
  dataDir: string;
  clock: () => Date;
  logger: Logger;
}): Job {
  const logger = deps.logger.child({ worker: 'retention' });
  return {
    name: 'retention',
    scope: 'cluster',
    everyMs: RETENTION_INTERVAL_MS,
    async run(signal) {
      const now = deps.clock();
      const report = await enforceRetention(deps.db, now, { signal });
      const files = await enforceMailFileRetention(deps.dataDir, now);
      if (files > 0) report['mail files'] = files;
      // A sent e-mail's sealed copy lasts its resend window only (decision 235).
      const seals = await createOutboxRepository(deps.db).dropExpiredSeals(now);
      if (seals > 0) report['sealed e-mail copies'] = seals;
      const rows = Object.values(report).reduce((sum, count) => sum + count, 0);
      if (rows > 0) logger.info(report, 'retention: rows past their period deleted');
      return rows;
    },
  };
}
