import { describe, expect, it } from 'vitest';
import { calculatePrice, formatCents } from '#shared/pricing/index.ts';
import { priceQuote } from './quote-lines.ts';

describe('the priced lines of a quote', () => {
  it('prices Pro as its base with 4 orgs plus each further org, in cents', () => {
    const quote = priceQuote({
      edition: 'Pro',
      quantity: 10,
      billingPeriod: 'monthly',
      currency: 'USD',
    });
    expect(quote.lines).toEqual([
      expect.objectContaining({ quantity: 1, unitCents: 49_500, amountCents: 49_500 }),
      expect.objectContaining({
        description: 'Additional Salesforce orgs',
        detail: 'Orgs 5 to 10, per org per month',
        quantity: 6,
        unitCents: 13_500,
        amountCents: 81_000,
      }),
    ]);
    expect(quote.totalCents).toBe(130_500);
    expect(quote.yearlySavingCents).toBeUndefined();
    expect(quote.planName).toBe('Orgsmith Pro, 10 orgs');
    expect(quote.period).toBe('per month');
  });

  it('has one line for Pro at its start size', () => {
    const quote = priceQuote({
      edition: 'Pro',
      quantity: 4,
      billingPeriod: 'monthly',
      currency: 'USD',
    });
    expect(quote.lines).toHaveLength(1);
    expect(quote.totalCents).toBe(49_500);
  });

  it('prices EUR and yearly with the engine’s floors and states the yearly saving', () => {
    // EUR month: floor(495 × 0.926) = 458, floor(135 × 0.926) = 125;
    // year: floor(458 × 12 × 0.9) = 4946, floor(125 × 12 × 0.9) = 1350.
    const quote = priceQuote({
      edition: 'Pro',
      quantity: 7,
      billingPeriod: 'yearly',
      currency: 'EUR',
    });
    expect(quote.lines.map((line) => [line.quantity, line.unitCents, line.amountCents])).toEqual([
      [1, 494_600, 494_600],
      [3, 135_000, 405_000],
    ]);
    expect(quote.totalCents).toBe(899_600);
    // 12 × (458 + 3 × 125) − 8996 = 9996 − 8996.
    expect(quote.yearlySavingCents).toBe(100_000);
    expect(formatCents(quote.totalCents, 'EUR')).toBe('€8,996.00');
    expect(quote.period).toBe('per year');
  });

  it('prices Enterprise as one line and agrees with the engine for every size and choice', () => {
    const enterprise = priceQuote({
      edition: 'Enterprise',
      quantity: 25,
      billingPeriod: 'yearly',
      currency: 'USD',
    });
    expect(enterprise.lines).toEqual([
      expect.objectContaining({ quantity: 1, unitCents: 3_780_000, amountCents: 3_780_000 }),
    ]);
    expect(enterprise.yearlySavingCents).toBe(420_000);
    for (let size = 4; size <= 25; size++) {
      for (const billingPeriod of ['monthly', 'yearly'] as const) {
        for (const currency of ['USD', 'EUR'] as const) {
          const edition = size === 25 ? 'Enterprise' : 'Pro';
          const quote = priceQuote({ edition, quantity: size, billingPeriod, currency });
          const engine = calculatePrice({ size, billingPeriod, currency });
          expect(quote.totalCents).toBe(engine.selected.total * 100);
          for (const line of quote.lines)
            expect(line.amountCents).toBe(line.unitCents * line.quantity);
        }
      }
    }
  });

  it('refuses a size of another edition', () => {
    expect(() =>
      priceQuote({
        edition: 'Enterprise',
        quantity: 10,
        billingPeriod: 'monthly',
        currency: 'USD',
      }),
    ).toThrow(RangeError);
  });
});
