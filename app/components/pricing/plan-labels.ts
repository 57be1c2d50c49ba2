/**
 * What the pricing components derive from the pricing engine: the org and stack counts of a plan
 * as text, and whether a plan includes a feature. The copy (taglines, feature names) is
 * `app/content/pricing-plans.ts`, passed in as props.
 */
import {
  defaultSizeForEdition,
  priceInfo,
  type Edition,
  type PriceInfo,
} from '#shared/pricing/index.ts';

type FeatureFlag = keyof Pick<
  PriceInfo,
  | 'hasRollback'
  | 'hasTestAutomation'
  | 'hasUtilityCommands'
  | 'hasBranchSwitching'
  | 'hasSupport'
  | 'hasSla'
>;

export interface PlanFeature {
  /** The price-info flag that says whether a plan includes the feature; `null`: every plan. */
  flag: FeatureFlag | null;
  label: string;
}

export function planIncludes(info: PriceInfo, feature: PlanFeature): boolean {
  return feature.flag === null || info[feature.flag];
}

function countLabel(count: PriceInfo['orgs'], one: string, many: string): string {
  if (count === 'unlimited') return `Unlimited ${many}`;
  return `${count} ${count === 1 ? one : many}`;
}

export const orgsLabel = (info: PriceInfo) => countLabel(info.orgs, 'org', 'orgs');
export const stacksLabel = (info: PriceInfo) => countLabel(info.stacks, 'stack', 'stacks');

/** The range of orgs or stacks a plan spans, e.g. Pro "4 to 24" orgs and "1 to 5" stacks. */
export function planRange(edition: Edition, key: 'orgs' | 'stacks'): string {
  const first = priceInfo(defaultSizeForEdition(edition))[key];
  const last = edition === 'Pro' ? priceInfo(defaultSizeForEdition('Enterprise') - 1)[key] : first;
  if (first === 'unlimited') return 'Unlimited';
  return first === last ? String(first) : `${first} to ${last}`;
}

/** `planRange` with its noun: "3 orgs", "1 stack", "1 to 5 stacks", "Unlimited orgs". */
export function planRangeLabel(edition: Edition, key: 'orgs' | 'stacks'): string {
  const range = planRange(edition, key);
  const noun = key === 'orgs' ? 'org' : 'stack';
  return `${range} ${range === '1' ? noun : `${noun}s`}`;
}
