import { describe, expect, it } from 'vitest';
import { currencies } from './price-config.ts';
import { formatCents, formatPrice } from './format-price.ts';

/** What the site showed before, with Intl: the hand-written formatter must agree everywhere. */
function intlPrice(amount: number, currency: string, fractionDigits: number): string {
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency,
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
  }).format(amount);
}

const amounts = [
  0, 1, 9, 10, 99, 100, 999, 1000, 1305, 9999, 10_000, 123_456, 999_999, 1_000_000, 12_345_678_901,
];

describe('formatPrice', () => {
  it('writes whole amounts as en-US currency text', () => {
    expect(formatPrice(1305, 'USD')).toBe('$1,305');
    expect(formatPrice(1208, 'EUR')).toBe('€1,208');
    expect(formatPrice(0, 'USD')).toBe('$0');
  });

  it.each(currencies)(
    'agrees with Intl for %s, whole amounts, fractions and negatives',
    (currency) => {
      for (const amount of [...amounts, 0.4, 0.5, 1.5, 2.5, 1304.49, 1304.5, -1, -1305, -2.5]) {
        expect(formatPrice(amount, currency)).toBe(intlPrice(amount, currency, 0));
      }
    },
  );

  it('refuses amounts it cannot write exactly', () => {
    expect(() => formatPrice(Number.NaN, 'USD')).toThrow(RangeError);
    expect(() => formatPrice(Number.POSITIVE_INFINITY, 'USD')).toThrow(RangeError);
    expect(() => formatPrice(2 ** 60, 'USD')).toThrow(RangeError);
  });
});

describe('formatCents', () => {
  it('writes cents with both decimals', () => {
    expect(formatCents(1_409_400, 'USD')).toBe('$14,094.00');
    expect(formatCents(120_850, 'EUR')).toBe('€1,208.50');
    expect(formatCents(5, 'USD')).toBe('$0.05');
  });

  it.each(currencies)('agrees with Intl for %s', (currency) => {
    for (const cents of [...amounts, 5, 50, 101, 130_549, -5, -130_549]) {
      expect(formatCents(cents, currency)).toBe(intlPrice(cents / 100, currency, 2));
    }
  });

  it('refuses fractions of a cent', () => {
    expect(() => formatCents(1.5, 'USD')).toThrow(RangeError);
  });
});
