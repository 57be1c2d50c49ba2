import {
  defaultSizeForEdition,
  priceInfo,
  type Edition,
  type PriceInfo,
} from '#shared/pricing/index.ts';

/** The one-line pitch of each plan card. */
export const planTaglines: Record<Edition, string> = {
  Starter: 'For a first pipeline: one stack of three orgs, free.',
  Pro: 'For growing teams: 4 to 24 orgs with rollback, test automation and the Pro toolbox.',
  Enterprise: 'Unlimited orgs and stacks, branch switching and a support SLA.',
};

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

/** What a plan can include, in the order the page lists it. */
export const planFeatures: readonly PlanFeature[] = [
  { flag: null, label: 'Inbound, outbound and merge flows' },
  { flag: 'hasRollback', label: 'Metadata rollback' },
  { flag: 'hasTestAutomation', label: 'Apex test automation' },
  { flag: 'hasUtilityCommands', label: 'Toolbox commands marked Pro and higher' },
  { flag: 'hasBranchSwitching', label: 'Branch switching commands' },
  { flag: 'hasSupport', label: 'Free technical support by e-mail and community chat' },
  { flag: 'hasSla', label: 'Support SLA: 24 h maximum response on business days' },
];

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
