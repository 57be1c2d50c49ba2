/**
 * The price configuration (docs/product-rules.md#data, #constants): the one place where plan thresholds and list prices
 * live. The site, the checkout and the account service all read it through this package.
 */
export type Edition = 'Starter' | 'Pro' | 'Enterprise';
export type BillingPeriod = 'monthly' | 'yearly';
export type Currency = 'USD' | 'EUR';

export const editions: readonly Edition[] = ['Starter', 'Pro', 'Enterprise'];
export const billingPeriods: readonly BillingPeriod[] = ['monthly', 'yearly'];
export const currencies: readonly Currency[] = ['USD', 'EUR'];

export const priceConfig = {
  starterStartSize: 3,
  starterOrgs: 3,
  starterStacks: 1,
  proStartSize: 4,
  proOrgsPerSizeUnit: 1,
  proStacksPerSizeUnit: 0.2,
  enterpriseStartSize: 25,
  annualDiscountFactor: 0.9,
  /** EUR list prices are the USD ones times this factor, floored. */
  eurFactor: 0.926,
  /** Monthly list prices in USD; the Pro base covers the orgs of the Pro start size (4). */
  usdMonthly: {
    Pro: { base: 495, perOrg: 135 },
    Enterprise: { base: 3500, perOrg: 0 },
  },
  /** The Enterprise SLA: maximum first response time on business days. */
  enterpriseSlaResponseHours: 24,
} as const;

export const sliderRange = {
  min: 3,
  max: 25,
  step: 1,
  defaultSize: 4,
} as const;

export function isEdition(value: unknown): value is Edition {
  return editions.some((edition) => edition === value);
}

export function isBillingPeriod(value: unknown): value is BillingPeriod {
  return billingPeriods.some((period) => period === value);
}

export function isCurrency(value: unknown): value is Currency {
  return currencies.some((currency) => currency === value);
}

/** A size the selector can show: a whole number inside the slider range. */
export function isValidSize(value: unknown): value is number {
  return (
    typeof value === 'number' &&
    Number.isInteger(value) &&
    value >= sliderRange.min &&
    value <= sliderRange.max
  );
}
