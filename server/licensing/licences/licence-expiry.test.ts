import { describe, expect, it } from 'vitest';
import { addMonths } from './licence-expiry.ts';

describe('addMonths', () => {
  it.each([
    ['2026-01-15T10:00:00.000Z', '2026-03-15T10:00:00.000Z'],
    ['2025-12-31T23:30:00.000Z', '2026-02-28T23:30:00.000Z'],
    ['2027-12-31T08:00:00.000Z', '2028-02-29T08:00:00.000Z'],
    ['2026-11-30T00:00:00.000Z', '2027-01-30T00:00:00.000Z'],
  ])('two months after %s is %s', (from, expected) => {
    expect(addMonths(new Date(from), 2).toISOString()).toBe(expected);
  });
});
