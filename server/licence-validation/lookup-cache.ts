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

export function createLookupCache<V>(options: {
  ttlMs: number;
  maxEntries: number;
  clock: () => Date;
}): LookupCache<V> {
  const { ttlMs, maxEntries, clock } = options;
  const entries = new Map<string, { value: V; expires: number }>();
  return {
    get(key) {
      if (ttlMs <= 0) return undefined;
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expires <= clock().getTime()) {
        entries.delete(key);
        return undefined;
      }
      // Re-insert so that Map order stays least-recently-used first.
      entries.delete(key);
      entries.set(key, entry);
      return entry.value;
    },
    set(key, value) {
      if (ttlMs <= 0) return;
      entries.delete(key);
      entries.set(key, { value, expires: clock().getTime() + ttlMs });
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next();
        if (oldest.done) break;
        entries.delete(oldest.value);
      }
    },
    delete(key) {
      entries.delete(key);
    },
    get size() {
      return entries.size;
    },
  };
}
