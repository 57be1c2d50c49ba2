import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ceilTimes, floorTimes } from './exact-math.ts';
import { formatPrice } from './format-price.ts';
import { editions, sliderRange } from './price-config.ts';
import { defaultSizeForEdition, editionForSize, priceInfo } from './price-info.ts';
import { quantityIsValidForEdition } from './quantity.ts';

describe('editionForSize and defaultSizeForEdition', () => {
  it('derives the plan from the size', () => {
    expect([1, 2, 3].map(editionForSize)).toEqual(['Starter', 'Starter', 'Starter']);
    expect([4, 10, 24].map(editionForSize)).toEqual(['Pro', 'Pro', 'Pro']);
    expect([25, 40].map(editionForSize)).toEqual(['Enterprise', 'Enterprise']);
  });

  it('gives each plan its default size, which maps back to the plan', () => {
    expect(editions.map(defaultSizeForEdition)).toEqual([3, 4, 25]);
    for (const edition of editions) {
      expect(editionForSize(defaultSizeForEdition(edition))).toBe(edition);
    }
    expect(editionForSize(sliderRange.defaultSize)).toBe('Pro');
  });
});

describe('priceInfo', () => {
  it('describes Starter: 3 orgs, 1 stack, fixed, support only', () => {
    expect(priceInfo(3)).toEqual({
      size: 3,
      edition: 'Starter',
      orgs: 3,
      stacks: 1,
      isFixed: true,
      hasTestAutomation: false,
      hasUtilityCommands: false,
      hasRollback: false,
      hasBranchSwitching: false,
      hasSupport: true,
      hasSla: false,
      billingSizeCode: 'STA',
    });
  });

  it('describes Pro: orgs = size, stacks = ceil(orgs × 0.2)', () => {
    const expected: [size: number, stacks: number][] = [
      [4, 1],
      [5, 1],
      [6, 2],
      [10, 2],
      [11, 3],
      [15, 3],
      [16, 4],
      [20, 4],
      [21, 5],
      [24, 5],
    ];
    for (const [size, stacks] of expected) {
      expect(priceInfo(size)).toMatchObject({
        edition: 'Pro',
        orgs: size,
        stacks,
        isFixed: false,
        billingSizeCode: `PRO_${size}`,
      });
    }
    expect(priceInfo(24)).toMatchObject({
      hasTestAutomation: true,
      hasUtilityCommands: true,
      hasRollback: true,
      hasBranchSwitching: false,
      hasSupport: true,
      hasSla: false,
    });
  });

  it('describes Enterprise: unlimited orgs and stacks, everything, the SLA', () => {
    expect(priceInfo(25)).toEqual({
      size: 25,
      edition: 'Enterprise',
      orgs: 'unlimited',
      stacks: 'unlimited',
      isFixed: true,
      hasTestAutomation: true,
      hasUtilityCommands: true,
      hasRollback: true,
      hasBranchSwitching: true,
      hasSupport: true,
      hasSla: true,
      billingSizeCode: 'ENT',
    });
  });

  it('only Pro varies; every size in range has support and a billing code', () => {
    fc.assert(
      fc.property(fc.integer({ min: sliderRange.min, max: sliderRange.max }), (size) => {
        const info = priceInfo(size);
        expect(info.isFixed).toBe(info.edition !== 'Pro');
        expect(info.hasSupport).toBe(true);
        expect(info.billingSizeCode).toMatch(/^(STA|ENT|PRO_([4-9]|1\d|2[0-4]))$/);
      }),
    );
  });

  it('rejects sizes outside the slider range', () => {
    for (const bad of [0, 2, 26, 3.5, Number.POSITIVE_INFINITY]) {
      expect(() => priceInfo(bad)).toThrow(RangeError);
    }
  });
});

describe('quantityIsValidForEdition', () => {
  it('accepts Starter 3, Pro 4..24, Enterprise 25 and nothing else', () => {
    for (let q = 0; q <= 30; q++) {
      expect(quantityIsValidForEdition('Starter', q)).toBe(q === 3);
      expect(quantityIsValidForEdition('Pro', q)).toBe(q >= 4 && q <= 24);
      expect(quantityIsValidForEdition('Enterprise', q)).toBe(q === 25);
    }
    expect(quantityIsValidForEdition('Pro', 4.5)).toBe(false);
    expect(quantityIsValidForEdition('Pro', Number.NaN)).toBe(false);
  });
});

describe('exact decimal helpers', () => {
  it('floor and ceil products without floating-point drift', () => {
    expect(floorTimes(3500, 0.926)).toBe(3241);
    expect(floorTimes(3241 * 12, 0.9)).toBe(35002);
    expect(ceilTimes(15, 0.2)).toBe(3);
    expect(ceilTimes(16, 0.2)).toBe(4);
    expect(() => floorTimes(1.5, 0.9)).toThrow(RangeError);
  });
});

describe('formatPrice', () => {
  it('formats whole units with the currency sign', () => {
    expect(formatPrice(1305, 'USD')).toBe('$1,305');
    expect(formatPrice(35002, 'EUR')).toBe('€35,002');
    expect(formatPrice(0, 'USD')).toBe('$0');
  });
});
