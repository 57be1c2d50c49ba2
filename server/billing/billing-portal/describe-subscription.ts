import { planName } from '#shared/pricing/index.ts';
import type { ManageableSubscription } from './build-portal-links.ts';

function billingTerms(subscription: ManageableSubscription): string | null {
  if (subscription.type === 'Free') return 'free';
  if (!subscription.billingPeriod || !subscription.currency) return null;
  return `billed ${subscription.billingPeriod} in ${subscription.currency}`;
}

const statusWords: Record<ManageableSubscription['status'], string | null> = {
  Active: null,
  Deactivated: 'deactivated, payment due',
  Cancelled: 'cancelled',
};

/**
 * How a link's subscription is named, so a reader with several can tell them apart: plan, orgs,
 * billing, the key's last group (never the key) and any state other than active.
 */
export function describeSubscription(subscription: ManageableSubscription): string {
  return [
    planName(subscription.edition, subscription.quantity),
    billingTerms(subscription),
    `key ending in ${subscription.keyHint}`,
    statusWords[subscription.status],
  ]
    .filter((part) => part !== null)
    .join(' · ');
}
