import { describe, expect, it } from 'vitest';
import { createLookupCache } from './lookup-cache.ts';

describe('createLookupCache', () => {
  it('keeps values for the time to live', () => {
    let now = 0;
    const cache = createLookupCache<string>({
      ttlMs: 5000,
      maxEntries: 10,
      clock: () => new Date(now),
    });
    cache.set('a', 'one');
    now = 4999;
    expect(cache.get('a')).toBe('one');
    now = 5000;
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('evicts the least recently used entry beyond its size', () => {
    const cache = createLookupCache<number>({
      ttlMs: 1000,
      maxEntries: 2,
      clock: () => new Date(0),
    });
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
  });

  it('caches nothing with a zero time to live, and forgets deleted keys', () => {
    const off = createLookupCache<number>({ ttlMs: 0, maxEntries: 2, clock: () => new Date(0) });
    off.set('a', 1);
    expect(off.get('a')).toBeUndefined();
    const on = createLookupCache<number>({ ttlMs: 1000, maxEntries: 2, clock: () => new Date(0) });
    on.set('a', 1);
    on.delete('a');
    expect(on.get('a')).toBeUndefined();
  });
});
