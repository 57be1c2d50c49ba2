import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';

/** `orgsmith-20260115T100000Z.jsonl.gz`: names sort as their times do. */
const SCHEDULED_NAME = /^orgsmith-\d{8}T\d{6}Z\.jsonl\.gz$/;

/** The file name of a scheduled backup whose snapshot is taken at `at` (UTC). */
export function scheduledBackupName(at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');
  return `orgsmith-${stamp}.jsonl.gz`;
}

/**
 * Deletes the oldest scheduled backups in `dir` beyond the newest `keep`; returns their names.
 * Only names the schedule writes are touched: the operator's own files and unfinished
 * temporary files (`*.partial`) stay.
 */
export async function rotateBackups(dir: string, keep: number): Promise<string[]> {
  const names = (await readdir(dir)).filter((name) => SCHEDULED_NAME.test(name)).sort();
  const old = names.slice(0, Math.max(0, names.length - keep));
  // Another instance sharing the directory may have removed one already.
  await Promise.all(old.map((name) => rm(path.join(dir, name), { force: true })));
  return old;
}
