import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/database.ts';
import { rateLimitCounters } from '../db/schema.ts';

export interface CounterIncrement {
  bucket: string;
  windowStart: Date;
  expiresAt: Date;
  hits: number;
}

/** Key of a counter row in the map `writeCounterIncrements` returns. */
export function counterKey(bucket: string, windowStart: Date | number): string {
  return `${bucket}|${typeof windowStart === 'number' ? windowStart : windowStart.getTime()}`;
}

/**
 * Adds hits to counter rows in one statement and returns each row's new total by
 * `counterKey`. Rows go in a fixed order, so two instances flushing the same counters lock them
 * in the same order and cannot deadlock.
 */
export async function writeCounterIncrements(
  db: Database,
  increments: CounterIncrement[],
): Promise<Map<string, number>> {
  const totals = new Map<string, number>();
  if (increments.length === 0) return totals;
  const rows = [...increments].sort(
    (a, b) =>
      (a.bucket < b.bucket ? -1 : a.bucket > b.bucket ? 1 : 0) ||
      a.windowStart.getTime() - b.windowStart.getTime(),
  );
  const returned = await db
    .insert(rateLimitCounters)
    .values(rows)
    .onConflictDoUpdate({
      target: [rateLimitCounters.bucket, rateLimitCounters.windowStart],
      set: { hits: sql`${rateLimitCounters.hits} + excluded.hits` },
    })
    .returning({
      bucket: rateLimitCounters.bucket,
      windowStart: rateLimitCounters.windowStart,
      hits: rateLimitCounters.hits,
    });
  for (const row of returned) totals.set(counterKey(row.bucket, row.windowStart), row.hits);
  return totals;
}

/** Both drivers answer `execute` with `{ rows }`. */
const deletedCount = z.object({ rows: z.array(z.object({ deleted: z.coerce.number() })) });

/** Expired counters deleted per statement: short transactions, however many have piled up. */
export const SWEEP_BATCH_SIZE = 5000;

/**
 * Deletes counters of windows that have ended, in batches through the `expires_at` index;
 * returns how many (counted in the database, no key comes back; decision 175).
 */
export async function deleteExpiredCounters(
  db: Database,
  now: Date,
  batchSize = SWEEP_BATCH_SIZE,
): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await db.execute(sql`
      with expired as (
        select bucket, window_start from ${rateLimitCounters}
        where ${rateLimitCounters.expiresAt} < ${now.toISOString()}::timestamptz
        limit ${batchSize}
      ), gone as (
        delete from ${rateLimitCounters} c using expired
        where c.bucket = expired.bucket and c.window_start = expired.window_start
        returning 1
      )
      select count(*)::int as deleted from gone`);
    const deleted = deletedCount.parse(result).rows[0]?.deleted ?? 0;
    total += deleted;
    if (deleted < batchSize) return total;
  }
}
