import {
  billingPeriods,
  currencies,
  defaultSizeForEdition,
  editions,
  isBillingPeriod,
  isCurrency,
  isEdition,
  priceConfig,
  unitPrices,
  type BillingPeriod,
  type Currency,
  type Edition,
} from '#shared/pricing/index.ts';
import type { CheckoutOrder } from '#server/billing/subscriptions/payment-types.ts';

/**
 * The Stripe catalogue derived from the pricing engine (decision 060): one product per edition,
 * one recurring price per (edition, billing period, currency), found by its lookup key.
 * `npm run admin -- stripe sync` makes Stripe match this; checkout only ever looks prices up by key.
 */

export const stripeProductIds: Record<Edition, string> = {
  Starter: 'orgsmith_starter',
  Pro: 'orgsmith_pro',
  Enterprise: 'orgsmith_enterprise',
};

export interface StripeProductDefinition {
  id: string;
  edition: Edition;
  name: string;
  description: string;
}

export function stripeProductDefinitions(): StripeProductDefinition[] {
  const descriptions: Record<Edition, string> = {
    Starter: `Free edition: ${priceConfig.starterOrgs} orgs, ${priceConfig.starterStacks} stack.`,
    Pro: `Priced per org: the base price covers ${priceConfig.proStartSize} orgs, each further org is added per unit.`,
    Enterprise: 'Unlimited orgs and stacks, branch switching commands and the support SLA.',
  };
  return editions.map((edition) => ({
    id: stripeProductIds[edition],
    edition,
    name: `Orgsmith ${edition}`,
    description: descriptions[edition],
  }));
}

/** `orgsmith_pro_yearly_eur`: the one name checkout and sync use for a price. */
export function priceLookupKey(
  edition: Edition,
  billingPeriod: BillingPeriod,
  currency: Currency,
): string {
  return `orgsmith_${edition.toLowerCase()}_${billingPeriod}_${currency.toLowerCase()}`;
}

/** Reads (edition, period, currency) back from a lookup key; null for keys that are not ours. */
export function parsePriceLookupKey(
  key: string | null | undefined,
): Omit<CheckoutOrder, 'quantity'> | null {
  const match = /^orgsmith_([a-z]+)_([a-z]+)_([a-z]+)$/.exec(key ?? '');
  if (!match) return null;
  const [, editionPart = '', billingPeriod, currencyPart = ''] = match;
  const edition = editions.find((candidate) => candidate.toLowerCase() === editionPart);
  const currency = currencyPart.toUpperCase();
  if (!isEdition(edition) || !isBillingPeriod(billingPeriod) || !isCurrency(currency)) return null;
  return { edition, billingPeriod, currency };
}

/** One tier of a graduated price, in minor units (cents); `upTo: null` is the open last tier. */
export interface PriceTier {
  upTo: number | null;
  flatAmount: number;
  unitAmount: number;
}

export type PriceModel =
  { scheme: 'per_unit'; unitAmount: number } | { scheme: 'tiered'; tiers: PriceTier[] };

export interface StripePriceDefinition {
  lookupKey: string;
  productId: string;
  edition: Edition;
  billingPeriod: BillingPeriod;
  currency: Currency;
  interval: 'month' | 'year';
  model: PriceModel;
}

/** Both currencies have two decimals: Stripe amounts are whole units × 100. */
export function toMinorUnits(amount: number): number {
  return Math.round(amount * 100);
}

/**
 * Pro: a graduated price whose first tier is a flat base for the first 4 orgs, then a unit price
 * per further org, so quantity = orgs bills exactly the engine's total. Enterprise: one flat tier
 * (any quantity costs the same). Starter: zero per unit.
 */
export function priceModel(edition: Edition, billingPeriod: BillingPeriod, currency: Currency) {
  const units = unitPrices(edition, currency)[billingPeriod];
  switch (edition) {
    case 'Starter':
      return { scheme: 'per_unit', unitAmount: 0 } satisfies PriceModel;
    case 'Pro':
      return {
        scheme: 'tiered',
        tiers: [
          {
            upTo: priceConfig.proStartSize * priceConfig.proOrgsPerSizeUnit,
            flatAmount: toMinorUnits(units.base),
            unitAmount: 0,
          },
          { upTo: null, flatAmount: 0, unitAmount: toMinorUnits(units.perOrg) },
        ],
      } satisfies PriceModel;
    case 'Enterprise':
      return {
        scheme: 'tiered',
        tiers: [{ upTo: null, flatAmount: toMinorUnits(units.base), unitAmount: 0 }],
      } satisfies PriceModel;
  }
}

export function stripePriceDefinitions(): StripePriceDefinition[] {
  return editions.flatMap((edition) =>
    billingPeriods.flatMap((billingPeriod) =>
      currencies.map((currency) => ({
        lookupKey: priceLookupKey(edition, billingPeriod, currency),
        productId: stripeProductIds[edition],
        edition,
        billingPeriod,
        currency,
        interval: billingPeriod === 'monthly' ? ('month' as const) : ('year' as const),
        model: priceModel(edition, billingPeriod, currency),
      })),
    ),
  );
}

/** What a tiered price bills for a quantity (to check the catalogue against the engine). */
export function billedAmount(model: PriceModel, quantity: number): number {
  if (model.scheme === 'per_unit') return model.unitAmount * quantity;
  let total = 0;
  let lowerBound = 0;
  for (const tier of model.tiers) {
    if (quantity <= lowerBound) break;
    const inTier = Math.min(quantity, tier.upTo ?? Infinity) - lowerBound;
    total += tier.flatAmount + tier.unitAmount * inTier;
    lowerBound = tier.upTo ?? Infinity;
  }
  return total;
}

/** The subscription item quantity a licence of this edition and size is sold with. */
export function checkoutQuantity(edition: Edition, size: number): number {
  return edition === 'Pro' ? size : defaultSizeForEdition(edition);
}

/** The licence size a subscription item stands for: Pro counts orgs, the others are fixed. */
export function licenceQuantity(edition: Edition, itemQuantity: number): number {
  return edition === 'Pro' ? itemQuantity : defaultSizeForEdition(edition);
}
