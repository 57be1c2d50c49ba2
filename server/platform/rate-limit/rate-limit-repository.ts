import { lt, sql } from 'drizzle-orm';
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

/** Deletes counters of windows that have ended; returns how many. */
export async function deleteExpiredCounters(db: Database, now: Date): Promise<number> {
  const deleted = await db
    .delete(rateLimitCounters)
    .where(lt(rateLimitCounters.expiresAt, now))
    .returning({ bucket: rateLimitCounters.bucket });
  return deleted.length;
}
