import { describe, expect, it } from 'vitest';
import { formatQuoteNumber, parseQuoteNumber, quoteDates, quoteIsOpen } from './quote-number.ts';

describe('quote numbers', () => {
  it('writes the sequence with at least four digits', () => {
    expect(formatQuoteNumber(2026, 1)).toBe('Q-2026-0001');
    expect(formatQuoteNumber(2026, 42)).toBe('Q-2026-0042');
    expect(formatQuoteNumber(2026, 9999)).toBe('Q-2026-9999');
    expect(formatQuoteNumber(2027, 10000)).toBe('Q-2027-10000');
  });

  it('refuses what is not a year or a sequence', () => {
    expect(() => formatQuoteNumber(26, 1)).toThrow(RangeError);
    expect(() => formatQuoteNumber(2026, 0)).toThrow(RangeError);
    expect(() => formatQuoteNumber(2026, 1.5)).toThrow(RangeError);
  });

  it('reads back only its own spelling', () => {
    expect(parseQuoteNumber('Q-2026-0001')).toEqual({ year: 2026, sequence: 1 });
    expect(parseQuoteNumber('Q-2026-12345')).toEqual({ year: 2026, sequence: 12345 });
    for (const other of [
      'Q-2026-001',
      'Q-2026-00012',
      'q-2026-0001',
      'Q-2026-0000',
      'Q-26-0001',
      'Q-2026-0001.pdf',
    ]) {
      expect(parseQuoteNumber(other), other).toBeUndefined();
    }
  });
});

describe('quote dates', () => {
  it('dates a quote by the seller’s calendar, not UTC', () => {
    // 23:30 UTC on New Year's Eve is already 1 January in Hamburg: the new year's numbering.
    const dates = quoteDates(new Date('2026-12-31T23:30:00Z'), 'Europe/Berlin');
    expect(dates).toEqual({ quoteDate: '2027-01-01', year: 2027, validUntil: '2027-01-31' });
  });

  it('is valid for 30 calendar days, the last one included', () => {
    expect(quoteDates(new Date('2026-02-10T09:00:00Z'), 'Europe/Berlin').validUntil).toBe(
      '2026-03-12',
    );
    expect(quoteIsOpen('2026-03-12', new Date('2026-03-12T22:59:00Z'), 'Europe/Berlin')).toBe(true);
    expect(quoteIsOpen('2026-03-12', new Date('2026-03-12T23:00:00Z'), 'Europe/Berlin')).toBe(
      false,
    );
  });
});
