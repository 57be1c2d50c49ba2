import { LRUCache } from 'lru-cache';

export interface TtlCacheOptions {
  /** Entries kept; the least recently read goes first. */
  maxEntries: number;
  /** How long an entry is kept after it was set, in whole milliseconds (at least 2). */
  ttlMs: number;
  /** The app's clock, so tests move time by hand. */
  clock: () => Date;
}

/**
 * A bounded cache in this process's memory: `lru-cache` with a time to live read from the app's
 * clock (decision 164). An entry set at `t` is gone from `t + ttlMs` on; an expired entry is
 * dropped when it is next read, or evicted first like any other least recently read one.
 */
export function createTtlCache<V extends NonNullable<unknown>>(
  options: TtlCacheOptions,
): LRUCache<string, V> {
  const { maxEntries, ttlMs, clock } = options;
  if (!Number.isInteger(ttlMs) || ttlMs < 2) {
    throw new RangeError(
      `createTtlCache: ttlMs must be a whole number of at least 2, not ${ttlMs}`,
    );
  }
  return new LRUCache<string, V>({
    max: maxEntries,
    // lru-cache keeps an entry while its age is at most `ttl`; the clock counts whole milliseconds.
    ttl: ttlMs - 1,
    // Read the clock at every look-up, not once per millisecond of real time.
    ttlResolution: 0,
    // Offset by 1 ms: lru-cache reads a start of 0 as "never expires".
    perf: { now: () => clock().getTime() + 1 },
  });
}
