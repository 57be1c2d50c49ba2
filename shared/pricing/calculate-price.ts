import { floorTimes } from './exact-math.ts';
import { priceConfig, type BillingPeriod, type Currency, type Edition } from './price-config.ts';
import { priceInfo, type PriceInfo } from './price-info.ts';

/** List prices of one edition in one currency and billing period, whole currency units. */
export interface UnitPrices {
  base: number;
  perOrg: number;
}

export interface EditionUnitPrices {
  monthly: UnitPrices;
  yearly: UnitPrices;
}

/** Amounts for one billing period: total = base + size. */
export interface PriceAmounts {
  base: number;
  size: number;
  total: number;
}

export interface PriceSelection {
  size: number;
  billingPeriod: BillingPeriod;
  currency: Currency;
}

export interface PriceCalculation {
  billingPeriod: BillingPeriod;
  currency: Currency;
  /** What a month costs when billed monthly. */
  monthly: PriceAmounts;
  /** What a year costs when billed yearly. */
  yearly: PriceAmounts;
  /** 12 × monthly total − yearly total. */
  savedYearly: number;
  /** Amounts of the chosen billing period (monthly or yearly). */
  selected: PriceAmounts;
  /** Orgs charged on top of the base price (Pro beyond 4 orgs; 0 for the other plans). */
  extraOrgs: number;
  isFree: boolean;
  info: PriceInfo;
}

const zeroUnits: UnitPrices = { base: 0, perOrg: 0 };

/**
 * Unit prices, floored per currency first (EUR = floor(USD × 0.926)), then per year
 * (yearly = floor(monthly × 12 × 0.9)), so the page and the payment provider agree to the unit.
 */
export function unitPrices(edition: Edition, currency: Currency): EditionUnitPrices {
  if (edition === 'Starter') return { monthly: zeroUnits, yearly: zeroUnits };
  const usd = priceConfig.usdMonthly[edition];
  const inCurrency = (amount: number) =>
    currency === 'USD' ? amount : floorTimes(amount, priceConfig.eurFactor);
  const perYear = (amount: number) => floorTimes(amount * 12, priceConfig.annualDiscountFactor);
  const monthly = { base: inCurrency(usd.base), perOrg: inCurrency(usd.perOrg) };
  return {
    monthly,
    yearly: { base: perYear(monthly.base), perOrg: perYear(monthly.perOrg) },
  };
}

/** Orgs beyond those the base price covers (Pro only; the other plans have none). */
function extraOrgs(info: PriceInfo): number {
  if (info.edition !== 'Pro' || typeof info.orgs !== 'number') return 0;
  return info.orgs - priceConfig.proStartSize * priceConfig.proOrgsPerSizeUnit;
}

function amounts(units: UnitPrices, orgs: number): PriceAmounts {
  const size = units.perOrg * orgs;
  return { base: units.base, size, total: units.base + size };
}

/** The price of a selection. Throws a RangeError for a size outside 3..25. */
export function calculatePrice({
  size,
  billingPeriod,
  currency,
}: PriceSelection): PriceCalculation {
  const info = priceInfo(size);
  const units = unitPrices(info.edition, currency);
  const orgs = extraOrgs(info);
  const monthly = amounts(units.monthly, orgs);
  const yearly = amounts(units.yearly, orgs);
  return {
    billingPeriod,
    currency,
    monthly,
    yearly,
    savedYearly: 12 * monthly.total - yearly.total,
    selected: billingPeriod === 'monthly' ? monthly : yearly,
    extraOrgs: orgs,
    isFree: info.edition === 'Starter',
    info,
  };
}

/** The price in the site's structured data (docs/product-rules.md#constants): Starter, monthly, USD. */
export function structuredDataPrice(): { price: number; currency: Currency } {
  const result = calculatePrice({
    size: priceConfig.starterStartSize,
    billingPeriod: 'monthly',
    currency: 'USD',
  });
  return { price: result.monthly.total, currency: result.currency };
}
