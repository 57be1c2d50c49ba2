import { createTtlCache } from '#server/platform/cache/ttl-cache.ts';

/**
 * A small time-bounded cache with least-recently-used eviction. Validation keeps the licence it
 * looked up here for a few seconds, so a CLI that validates on every command in a CI burst costs
 * one database round trip per few seconds instead of one per call (decision 073).
 */
export interface LookupCache<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): void;
  delete(key: string): void;
  readonly size: number;
}

/** With a time to live of 0 (`LICENSE_VALIDATION_CACHE_SECONDS=0`) it keeps nothing. */
export function createLookupCache<V extends NonNullable<unknown>>(options: {
  ttlMs: number;
  maxEntries: number;
  clock: () => Date;
}): LookupCache<V> {
  if (options.ttlMs <= 0) {
    return { get: () => undefined, set() {}, delete() {}, size: 0 };
  }
  return createTtlCache<V>(options);
}
