import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calculatePrice, structuredDataPrice, unitPrices } from './calculate-price.ts';
import { expectedPrices as table } from './expected-prices.fixture.ts';
import { billingPeriods, currencies, sliderRange } from './price-config.ts';

const amounts = ([base, size, total]: [number, number, number]) => ({ base, size, total });

describe('calculatePrice: the hand-written table', () => {
  for (const row of table) {
    for (const billingPeriod of billingPeriods) {
      it(`size ${row.size}, ${row.currency}, ${billingPeriod}`, () => {
        const result = calculatePrice({ size: row.size, billingPeriod, currency: row.currency });
        expect(result.billingPeriod).toBe(billingPeriod);
        expect(result.currency).toBe(row.currency);
        expect(result.monthly).toEqual(amounts(row.monthly));
        expect(result.yearly).toEqual(amounts(row.yearly));
        expect(result.savedYearly).toBe(row.savedYearly);
        expect(result.selected).toEqual(amounts(row[billingPeriod]));
        expect(result.isFree).toBe(row.size === 3);
        expect(result.info.size).toBe(row.size);
        expect(result.extraOrgs).toBe(row.size > 4 && row.size < 25 ? row.size - 4 : 0);
      });
    }
  }
});

describe('structuredDataPrice', () => {
  it('is the Starter monthly USD price', () => {
    expect(structuredDataPrice()).toEqual({ price: 0, currency: 'USD' });
  });
});

describe('unitPrices', () => {
  it('floors EUR from USD first, then the year from the month', () => {
    expect(unitPrices('Pro', 'USD')).toEqual({
      monthly: { base: 495, perOrg: 135 },
      yearly: { base: 5346, perOrg: 1458 },
    });
    expect(unitPrices('Pro', 'EUR')).toEqual({
      monthly: { base: 458, perOrg: 125 },
      yearly: { base: 4946, perOrg: 1350 },
    });
    expect(unitPrices('Enterprise', 'EUR')).toEqual({
      monthly: { base: 3241, perOrg: 0 },
      yearly: { base: 35002, perOrg: 0 },
    });
    expect(unitPrices('Starter', 'USD')).toEqual({
      monthly: { base: 0, perOrg: 0 },
      yearly: { base: 0, perOrg: 0 },
    });
  });
});

describe('calculatePrice: properties over every size 3..25', () => {
  const size = fc.integer({ min: sliderRange.min, max: sliderRange.max });
  const currency = fc.constantFrom(...currencies);
  const billingPeriod = fc.constantFrom(...billingPeriods);
  const wholeAmount = (n: number) => Number.isInteger(n) && n >= 0;

  it('total = base + size, in whole non-negative units', () => {
    fc.assert(
      fc.property(size, billingPeriod, currency, (s, p, c) => {
        const r = calculatePrice({ size: s, billingPeriod: p, currency: c });
        for (const a of [r.monthly, r.yearly]) {
          expect(a.total).toBe(a.base + a.size);
          expect([a.base, a.size, a.total].every(wholeAmount)).toBe(true);
        }
        expect(r.savedYearly).toBe(12 * r.monthly.total - r.yearly.total);
        const units = unitPrices(r.info.edition, c);
        expect(r.monthly.size).toBe(units.monthly.perOrg * r.extraOrgs);
        expect(r.yearly.size).toBe(units.yearly.perOrg * r.extraOrgs);
      }),
    );
  });

  it('follows the plan thresholds 4 and 25', () => {
    fc.assert(
      fc.property(size, currency, (s, c) => {
        const r = calculatePrice({ size: s, billingPeriod: 'monthly', currency: c });
        const expected = s < 4 ? 'Starter' : s < 25 ? 'Pro' : 'Enterprise';
        expect(r.info.edition).toBe(expected);
        expect(r.isFree).toBe(expected === 'Starter');
        if (r.isFree) {
          expect([r.monthly.total, r.yearly.total, r.savedYearly]).toEqual([0, 0, 0]);
        }
      }),
    );
  });

  it('charges less than 12 months for a year on paid plans', () => {
    fc.assert(
      fc.property(fc.integer({ min: 4, max: sliderRange.max }), currency, (s, c) => {
        const r = calculatePrice({ size: s, billingPeriod: 'yearly', currency: c });
        expect(r.yearly.total).toBeLessThan(12 * r.monthly.total);
        expect(r.savedYearly).toBeGreaterThan(0);
      }),
    );
  });

  it('never gets cheaper as the size grows', () => {
    fc.assert(
      fc.property(size, size, currency, (a, b, c) => {
        const [small, large] = a <= b ? [a, b] : [b, a];
        const lo = calculatePrice({ size: small, billingPeriod: 'monthly', currency: c });
        const hi = calculatePrice({ size: large, billingPeriod: 'monthly', currency: c });
        expect(lo.monthly.total).toBeLessThanOrEqual(hi.monthly.total);
        expect(lo.yearly.total).toBeLessThanOrEqual(hi.yearly.total);
      }),
    );
  });

  it('prices EUR below USD for paid plans, never above the factor', () => {
    fc.assert(
      fc.property(fc.integer({ min: 4, max: sliderRange.max }), (s) => {
        const usd = calculatePrice({ size: s, billingPeriod: 'monthly', currency: 'USD' });
        const eur = calculatePrice({ size: s, billingPeriod: 'monthly', currency: 'EUR' });
        expect(eur.monthly.total).toBeLessThan(usd.monthly.total);
        expect(eur.monthly.total).toBeLessThanOrEqual(usd.monthly.total * 0.926);
      }),
    );
  });

  it('rejects sizes outside the slider range', () => {
    for (const bad of [2, 26, 4.5, Number.NaN]) {
      expect(() =>
        calculatePrice({ size: bad, billingPeriod: 'monthly', currency: 'USD' }),
      ).toThrow(RangeError);
    }
  });
});
