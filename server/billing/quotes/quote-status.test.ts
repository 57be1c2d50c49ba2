import { describe, expect, it } from 'vitest';
import { quoteStatusOf } from './quote-status.ts';

describe('quoteStatusOf', () => {
  const validUntil = '2026-02-14';
  it('is open through the last valid day in Hamburg, then expired', () => {
    expect(quoteStatusOf({ status: 'open', validUntil }, new Date('2026-02-14T22:59:59Z'))).toBe(
      'open',
    );
    expect(quoteStatusOf({ status: 'open', validUntil }, new Date('2026-02-14T23:00:00Z'))).toBe(
      'expired',
    );
  });
  it('stays accepted once accepted, expired or not', () => {
    expect(
      quoteStatusOf({ status: 'accepted', validUntil }, new Date('2026-01-20T10:00:00Z')),
    ).toBe('accepted');
    expect(
      quoteStatusOf({ status: 'accepted', validUntil }, new Date('2027-01-01T10:00:00Z')),
    ).toBe('accepted');
  });
});
