import { describe, expect, it } from 'vitest';
import {
  billingPeriods,
  calculatePrice,
  currencies,
  editionForSize,
  sliderRange,
} from '#shared/pricing/index.ts';
import {
  billedAmount,
  checkoutQuantity,
  licenceQuantity,
  parsePriceLookupKey,
  priceLookupKey,
  priceModel,
  stripePriceDefinitions,
} from './stripe-price-catalog.ts';

describe('the Stripe catalogue bills exactly what the pricing engine says', () => {
  for (let size = sliderRange.min; size <= sliderRange.max; size++) {
    for (const billingPeriod of billingPeriods) {
      for (const currency of currencies) {
        it(`size ${size}, ${billingPeriod}, ${currency}`, () => {
          const edition = editionForSize(size);
          const engine = calculatePrice({ size, billingPeriod, currency });
          const model = priceModel(edition, billingPeriod, currency);
          const billed = billedAmount(model, checkoutQuantity(edition, size));
          expect(billed).toBe(engine.selected.total * 100);
        });
      }
    }
  }

  it('charges Pro 10 orgs yearly in EUR as base plus 6 per-org units', () => {
    expect(priceModel('Pro', 'yearly', 'EUR')).toEqual({
      scheme: 'tiered',
      tiers: [
        { upTo: 4, flatAmount: 494_600, unitAmount: 0 },
        { upTo: null, flatAmount: 0, unitAmount: 135_000 },
      ],
    });
    expect(billedAmount(priceModel('Pro', 'yearly', 'EUR'), 10)).toBe(1_304_600);
  });

  it('keeps Enterprise flat whatever the quantity', () => {
    const model = priceModel('Enterprise', 'monthly', 'USD');
    expect(billedAmount(model, 1)).toBe(350_000);
    expect(billedAmount(model, 25)).toBe(350_000);
    expect(billedAmount(model, 40)).toBe(350_000);
  });
});

describe('lookup keys', () => {
  it('has one distinct key per edition, period and currency', () => {
    const keys = stripePriceDefinitions().map((definition) => definition.lookupKey);
    expect(keys).toHaveLength(12);
    expect(new Set(keys).size).toBe(12);
    expect(keys).toContain('orgsmith_pro_yearly_eur');
  });

  it('round-trips and rejects foreign keys', () => {
    for (const definition of stripePriceDefinitions()) {
      expect(parsePriceLookupKey(definition.lookupKey)).toEqual({
        edition: definition.edition,
        billingPeriod: definition.billingPeriod,
        currency: definition.currency,
      });
    }
    expect(priceLookupKey('Enterprise', 'monthly', 'USD')).toBe('orgsmith_enterprise_monthly_usd');
    for (const foreign of [
      null,
      '',
      'pro_monthly_usd',
      'orgsmith_gold_monthly_usd',
      'orgsmith_pro_weekly_usd',
      'orgsmith_pro_monthly_gbp',
    ]) {
      expect(parsePriceLookupKey(foreign)).toBeNull();
    }
  });
});

describe('quantities', () => {
  it('sells Pro per org and the fixed editions at their size', () => {
    expect(checkoutQuantity('Pro', 10)).toBe(10);
    expect(checkoutQuantity('Starter', 3)).toBe(3);
    expect(checkoutQuantity('Enterprise', 25)).toBe(25);
    expect(licenceQuantity('Pro', 7)).toBe(7);
    // A plan switch in Stripe's portal may keep the old quantity: fixed editions ignore it.
    expect(licenceQuantity('Enterprise', 10)).toBe(25);
    expect(licenceQuantity('Starter', 10)).toBe(3);
  });
});
