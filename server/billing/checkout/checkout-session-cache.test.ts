import { describe, expect, it } from 'vitest';
import { createCheckoutSessionCache } from './checkout-session-cache.ts';

const notFound = { kind: 'final', status: { state: 'unknown' } } as const;

describe('checkout session cache', () => {
  it('keeps what it learnt until its time to live ends', () => {
    let now = new Date('2026-01-15T10:00:00Z');
    const cache = createCheckoutSessionCache({ clock: () => now, ttlMs: 60_000 });
    cache.set('cs_test_a', notFound);
    cache.set('cs_test_b', { kind: 'complete', subscriptionId: 'sub_1' });
    now = new Date('2026-01-15T10:00:59Z');
    expect(cache.get('cs_test_a')).toEqual(notFound);
    expect(cache.get('cs_test_b')).toEqual({ kind: 'complete', subscriptionId: 'sub_1' });
    now = new Date('2026-01-15T10:01:00Z');
    expect(cache.get('cs_test_a')).toBeUndefined();
    expect(cache.size).toBe(1);
  });

  it('holds at most its number of entries, dropping the least recently read', () => {
    const cache = createCheckoutSessionCache({ clock: () => new Date(0), maxEntries: 3 });
    for (const id of ['a', 'b', 'c']) cache.set(id, notFound);
    expect(cache.get('a')).toEqual(notFound);
    cache.set('d', notFound);
    expect(cache.size).toBe(3);
    expect(cache.get('b')).toBeUndefined();
    for (const id of ['a', 'c', 'd']) expect(cache.get(id), id).toEqual(notFound);
    for (let i = 0; i < 1000; i++) cache.set(`junk-${i}`, notFound);
    expect(cache.size).toBe(3);
  });
});
