import { ceilTimes } from './exact-math.ts';
import { isValidSize, priceConfig, sliderRange, type Edition } from './price-config.ts';

/** Marks a limit that does not exist (Enterprise orgs and stacks); see decision 021. */
export const UNLIMITED = 'unlimited';
export type Limit = number | typeof UNLIMITED;

export type BillingSizeCode = 'STA' | 'ENT' | `PRO_${number}`;

export interface PriceInfo {
  size: number;
  edition: Edition;
  /** Number of stacks the licence covers, or `'unlimited'`. */
  stacks: Limit;
  /** Number of orgs the licence covers, or `'unlimited'`. */
  orgs: Limit;
  /** Starter and Enterprise have one fixed size; only Pro varies with the org count. */
  isFixed: boolean;
  hasTestAutomation: boolean;
  hasUtilityCommands: boolean;
  hasRollback: boolean;
  hasBranchSwitching: boolean;
  /** Free technical support: every licence, trials included (decision 020). */
  hasSupport: boolean;
  /** The Enterprise support SLA (24 h maximum response on business days). */
  hasSla: boolean;
  billingSizeCode: BillingSizeCode;
}

/** Plan from size: below 4 Starter, 4 to 24 Pro, 25 or more Enterprise. */
export function editionForSize(size: number): Edition {
  if (size < priceConfig.proStartSize) return 'Starter';
  if (size < priceConfig.enterpriseStartSize) return 'Pro';
  return 'Enterprise';
}

/** The size a plan card selects: Starter 3, Pro 4, Enterprise 25. */
export function defaultSizeForEdition(edition: Edition): number {
  switch (edition) {
    case 'Starter':
      return priceConfig.starterStartSize;
    case 'Pro':
      return priceConfig.proStartSize;
    case 'Enterprise':
      return priceConfig.enterpriseStartSize;
  }
}

/** Everything a size buys. Throws a RangeError for a size outside the slider range 3..25. */
export function priceInfo(size: number): PriceInfo {
  if (!isValidSize(size)) {
    throw new RangeError(
      `Size must be a whole number from ${sliderRange.min} to ${sliderRange.max}, got ${size}`,
    );
  }
  const edition = editionForSize(size);
  const paid = edition !== 'Starter';
  const features = {
    hasTestAutomation: paid,
    hasUtilityCommands: paid,
    hasRollback: paid,
    hasBranchSwitching: edition === 'Enterprise',
    hasSupport: true,
    hasSla: edition === 'Enterprise',
  };
  switch (edition) {
    case 'Starter':
      return {
        size,
        edition,
        orgs: priceConfig.starterOrgs,
        stacks: priceConfig.starterStacks,
        isFixed: true,
        ...features,
        billingSizeCode: 'STA',
      };
    case 'Pro': {
      const orgs = size * priceConfig.proOrgsPerSizeUnit;
      return {
        size,
        edition,
        orgs,
        stacks: ceilTimes(orgs, priceConfig.proStacksPerSizeUnit),
        isFixed: false,
        ...features,
        billingSizeCode: `PRO_${orgs}`,
      };
    }
    case 'Enterprise':
      return {
        size,
        edition,
        orgs: UNLIMITED,
        stacks: UNLIMITED,
        isFixed: true,
        ...features,
        billingSizeCode: 'ENT',
      };
  }
}
