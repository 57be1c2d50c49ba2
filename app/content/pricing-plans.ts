import type { Edition } from '#shared/pricing/index.ts';
import type { PlanFeature } from '../components/pricing/plan-labels.ts';

/** The one-line pitch of each plan card. */
export const planTaglines: Record<Edition, string> = {
  Starter: 'For a first pipeline: one stack of three orgs, free.',
  Pro: 'For growing teams: 4 to 24 orgs with rollback, test automation and the Pro toolbox.',
  Enterprise: 'Unlimited orgs and stacks, branch switching and a support SLA.',
};

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
