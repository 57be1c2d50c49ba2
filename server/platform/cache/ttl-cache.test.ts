import { describe, expect, it } from 'vitest';
import { createTtlCache } from './ttl-cache.ts';

describe('createTtlCache', () => {
  it('keeps an entry until its time to live has passed, by the given clock', () => {
    let now = 0;
    const cache = createTtlCache<string>({
      maxEntries: 10,
      ttlMs: 1000,
      clock: () => new Date(now),
    });
    cache.set('a', 'one');
    now = 999;
    expect(cache.get('a')).toBe('one');
    now = 1000;
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('counts the time to live from the last set, not from reads', () => {
    let now = Date.parse('2026-01-15T10:00:00Z');
    const start = now;
    const cache = createTtlCache<string>({
      maxEntries: 10,
      ttlMs: 60_000,
      clock: () => new Date(now),
    });
    cache.set('a', 'one');
    now = start + 30_000;
    expect(cache.get('a')).toBe('one');
    now = start + 59_999;
    expect(cache.get('a')).toBe('one');
    cache.set('a', 'two');
    now = start + 119_998;
    expect(cache.get('a')).toBe('two');
    now = start + 119_999;
    expect(cache.get('a')).toBeUndefined();
  });

  it('drops the least recently read entry beyond its bound', () => {
    const cache = createTtlCache<number>({ maxEntries: 2, ttlMs: 1000, clock: () => new Date(0) });
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([1, undefined, 3]);
    expect(cache.size).toBe(2);
  });

  it('refuses a time to live it cannot keep exactly', () => {
    for (const ttlMs of [0, 1, 1.5, -1000]) {
      expect(
        () => createTtlCache({ maxEntries: 1, ttlMs, clock: () => new Date() }),
        `${ttlMs}`,
      ).toThrow(RangeError);
    }
  });
});
