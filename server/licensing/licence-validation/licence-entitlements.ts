import {
  defaultSizeForEdition,
  priceConfig,
  priceInfo,
  UNLIMITED,
  type Edition,
  type Limit,
  type PriceInfo,
} from '#shared/pricing/index.ts';

export interface LicenceEntitlements {
  /** Salesforce orgs the licence may be used in. */
  orgs: Limit;
  stacks: Limit;
  /** The edition's `has…` flags of the pricing engine that are on, e.g. `rollback`, sorted. */
  features: string[];
}

/** The pricing engine's flags as feature names: `hasBranchSwitching` → `branchSwitching`. */
function featuresOf(info: PriceInfo): string[] {
  return Object.entries(info)
    .filter(([name, value]) => /^has[A-Z]/.test(name) && value === true)
    .map(([name]) => `${name.charAt(3).toLowerCase()}${name.slice(4)}`)
    .sort();
}

/** The pricing size a licence stands for: its quantity for Pro, the fixed size otherwise. */
function sizeOf(edition: Edition, quantity: number): number {
  if (edition !== 'Pro') return defaultSizeForEdition(edition);
  const highestPro = priceConfig.enterpriseStartSize - 1;
  return Math.min(Math.max(Math.trunc(quantity), priceConfig.proStartSize), highestPro);
}

/**
 * What a licence grants, read from the pricing engine (the one source of editions, limits and
 * features). A trial has "no limits" (docs/product-rules.md#product): its edition's features with unlimited orgs and
 * stacks. Starter counts 3 orgs, the pricing page's figure (decision 073).
 */
export function licenceEntitlements(licence: {
  type: 'Trial' | 'Free' | 'Paid';
  edition: Edition;
  quantity: number;
}): LicenceEntitlements {
  const info = priceInfo(sizeOf(licence.edition, licence.quantity));
  const features = featuresOf(info);
  if (licence.type === 'Trial') return { orgs: UNLIMITED, stacks: UNLIMITED, features };
  return { orgs: info.orgs, stacks: info.stacks, features };
}
