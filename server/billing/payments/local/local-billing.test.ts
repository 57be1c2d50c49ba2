import { describe, expect, it } from 'vitest';
import {
  formatMinorAmount,
  nextPaymentAttempt,
  periodAmount,
  periodEndAfter,
  previewProration,
} from './local-billing.ts';

const pro10YearlyEur = {
  edition: 'Pro',
  quantity: 10,
  billingPeriod: 'yearly',
  currency: 'EUR',
} as const;

describe('local billing', () => {
  it('charges the engine total per period', () => {
    expect(periodAmount(pro10YearlyEur)).toBe(1_304_600);
    expect(periodAmount({ ...pro10YearlyEur, billingPeriod: 'monthly' })).toBe(120_800);
    expect(
      periodAmount({ edition: 'Starter', quantity: 3, billingPeriod: 'monthly', currency: 'USD' }),
    ).toBe(0);
    expect(formatMinorAmount(1_304_600, 'EUR')).toBe('€13,046.00');
  });

  it('runs periods by calendar month or year', () => {
    expect(periodEndAfter(new Date('2026-01-31T10:00:00Z'), 'monthly')).toEqual(
      new Date('2026-02-28T10:00:00Z'),
    );
    expect(periodEndAfter(new Date('2026-01-15T10:00:00Z'), 'yearly')).toEqual(
      new Date('2027-01-15T10:00:00Z'),
    );
  });

  it('prorates a quantity change half-way through a monthly period', () => {
    const current = {
      ...pro10YearlyEur,
      billingPeriod: 'monthly' as const,
      currency: 'USD' as const,
    };
    const preview = previewProration({
      current,
      next: { ...current, quantity: 12 },
      periodStart: new Date('2026-04-01T00:00:00Z'),
      periodEnd: new Date('2026-05-01T00:00:00Z'),
      now: new Date('2026-04-16T00:00:00Z'),
    });
    // 1305 USD now, 1575 USD on 12 orgs; half the period remains.
    expect(preview).toEqual({
      remainingShare: 0.5,
      credit: -65_250,
      charge: 78_750,
      total: 13_500,
      nextPeriodAmount: 157_500,
      startsNewPeriod: false,
      periodEnd: new Date('2026-05-01T00:00:00Z'),
    });
  });

  it('starts a new yearly period when monthly billing switches to yearly', () => {
    const monthly = {
      edition: 'Pro' as const,
      quantity: 10,
      billingPeriod: 'monthly' as const,
      currency: 'EUR' as const,
    };
    const preview = previewProration({
      current: monthly,
      next: { ...monthly, billingPeriod: 'yearly' },
      periodStart: new Date('2026-04-01T00:00:00Z'),
      periodEnd: new Date('2026-05-01T00:00:00Z'),
      now: new Date('2026-04-16T00:00:00Z'),
    });
    // Half of a 1,208 EUR month is credited; a whole 13,046 EUR year is charged from today.
    expect(preview).toEqual({
      remainingShare: 0.5,
      credit: -60_400,
      charge: 1_304_600,
      total: 1_244_200,
      nextPeriodAmount: 1_304_600,
      startsNewPeriod: true,
      periodEnd: new Date('2027-04-16T00:00:00Z'),
    });
  });

  it('credits the unused year when yearly billing switches to monthly', () => {
    const preview = previewProration({
      current: pro10YearlyEur,
      next: { ...pro10YearlyEur, billingPeriod: 'monthly' },
      periodStart: new Date('2026-01-01T00:00:00Z'),
      periodEnd: new Date('2027-01-01T00:00:00Z'),
      now: new Date('2026-07-02T12:00:00Z'),
    });
    // 182.5 of 365 days are left: half the year's 13,046 EUR back, one 1,208 EUR month charged.
    expect(preview.credit).toBe(-652_300);
    expect(preview.charge).toBe(120_800);
    expect(preview.total).toBe(-531_500);
    expect(preview.periodEnd).toEqual(new Date('2026-08-02T12:00:00Z'));
  });

  it('refuses to price a change of currency', () => {
    expect(() =>
      previewProration({
        current: pro10YearlyEur,
        next: { ...pro10YearlyEur, currency: 'USD' },
        periodStart: new Date('2026-01-01T00:00:00Z'),
        periodEnd: new Date('2027-01-01T00:00:00Z'),
        now: new Date('2026-02-01T00:00:00Z'),
      }),
    ).toThrow('currency');
  });

  it('credits a downgrade to Starter', () => {
    const current = {
      edition: 'Pro' as const,
      quantity: 4,
      billingPeriod: 'monthly' as const,
      currency: 'USD' as const,
    };
    const preview = previewProration({
      current,
      next: { ...current, edition: 'Starter', quantity: 3 },
      periodStart: new Date('2026-04-01T00:00:00Z'),
      periodEnd: new Date('2026-05-01T00:00:00Z'),
      now: new Date('2026-04-01T00:00:00Z'),
    });
    expect(preview.total).toBe(-49_500);
    expect(preview.nextPeriodAmount).toBe(0);
  });

  it('retries a failed renewal three times, then gives up', () => {
    const start = new Date('2026-02-15T10:00:00Z');
    expect(nextPaymentAttempt(1, start)).toEqual(new Date('2026-02-18T10:00:00Z'));
    expect(nextPaymentAttempt(2, start)).toEqual(new Date('2026-02-20T10:00:00Z'));
    expect(nextPaymentAttempt(3, start)).toEqual(new Date('2026-02-22T10:00:00Z'));
    expect(nextPaymentAttempt(4, start)).toBeNull();
  });
});
