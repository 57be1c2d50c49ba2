import { BILLING_PORTAL_PAGE } from '#shared/contracts/billing-portal.ts';
import type { BillingPeriod, Currency, Edition } from '#shared/pricing/index.ts';
import type { LicenceStatus, LicenceType } from '#server/platform/db/schema.ts';
import type { Licence } from '#server/licensing/licences/licence-repository.ts';
import type { SubscriptionRow } from '../subscriptions/subscription-repository.ts';
import { createPortalToken, portalTokenExpiry } from './portal-token.ts';

/**
 * At most this many links (payment customers) in one e-mail, live ones and then the newest
 * first; the e-mail says how many more there are (decision 092).
 */
export const MAX_PORTAL_LINKS = 10;
/** At most this many subscriptions named beside one link; the rest are counted. */
export const MAX_SUBSCRIPTIONS_PER_LINK = 5;

/** A Paid or Free licence with a payment customer, as the e-mail describes it. */
export interface ManageableSubscription {
  licenceId: string;
  customerId: string;
  type: Exclude<LicenceType, 'Trial'>;
  status: LicenceStatus;
  edition: Edition;
  quantity: number;
  /** The last group of the licence key (never the key). */
  keyHint: string;
  /** From the subscription mirror; null when it has no row for the licence. */
  billingPeriod: BillingPeriod | null;
  currency: Currency | null;
  createdAt: Date;
}

/** A licence as a link describes it; null for a trial or a licence without a customer. */
export function manageableSubscription(
  licence: Licence,
  subscription: SubscriptionRow | undefined,
): ManageableSubscription | null {
  if (licence.type === 'Trial' || !licence.customerId) return null;
  return {
    licenceId: licence.id,
    customerId: licence.customerId,
    type: licence.type,
    status: licence.status,
    edition: licence.edition,
    quantity: licence.quantity,
    keyHint: licence.keyHint,
    billingPeriod: subscription?.billingPeriod ?? null,
    currency: subscription?.currency ?? null,
    createdAt: licence.createdAt,
  };
}

export interface PortalLink {
  customerId: string;
  url: string;
  /** The customer's subscriptions, newest first, at most MAX_SUBSCRIPTIONS_PER_LINK. */
  subscriptions: ManageableSubscription[];
  /** How many more subscriptions the customer has than are named. */
  moreSubscriptions: number;
}

export interface PortalLinks {
  links: PortalLink[];
  /** Customers left out by MAX_PORTAL_LINKS. */
  moreCustomers: number;
  /** When every link of the e-mail expires. */
  expiresAt: Date;
}

/** Deactivated licences (payment lapsed) can still be saved in the portal: they count as live. */
function isLive(subscription: ManageableSubscription): boolean {
  return subscription.status !== 'Cancelled';
}

/**
 * One signed, single-use link per payment customer: a provider portal session shows one
 * customer's subscriptions, so a buyer with several customers (decision 091) needs one link
 * each. Each token names the customer and its newest licence, which must still belong to that
 * customer when the link is followed.
 */
export function buildPortalLinks(input: {
  secretKey: string;
  /** The site's origin: links open its landing page, whose button uses them (decision 123). */
  publicBaseUrl: string;
  now: Date;
  subscriptions: readonly ManageableSubscription[];
}): PortalLinks {
  const byCustomer = new Map<string, ManageableSubscription[]>();
  const newestFirst = [...input.subscriptions].sort(
    (a, b) => b.createdAt.getTime() - a.createdAt.getTime(),
  );
  for (const subscription of newestFirst) {
    const group = byCustomer.get(subscription.customerId) ?? [];
    group.push(subscription);
    byCustomer.set(subscription.customerId, group);
  }
  // Customers with a live subscription come first; within each kind, the newest purchase first
  // (the Map keeps the order in which customers were first met, which is newest first).
  const groups = [...byCustomer.values()];
  const ordered = [
    ...groups.filter((group) => group.some(isLive)),
    ...groups.filter((group) => !group.some(isLive)),
  ];

  const links = ordered.slice(0, MAX_PORTAL_LINKS).map((group): PortalLink => {
    const [anchor] = group;
    if (!anchor) throw new Error('empty customer group');
    const token = createPortalToken({
      secretKey: input.secretKey,
      licenceId: anchor.licenceId,
      customerId: anchor.customerId,
      now: input.now,
    });
    return {
      customerId: anchor.customerId,
      url: `${input.publicBaseUrl}${BILLING_PORTAL_PAGE}?token=${encodeURIComponent(token.token)}`,
      subscriptions: group.slice(0, MAX_SUBSCRIPTIONS_PER_LINK),
      moreSubscriptions: Math.max(0, group.length - MAX_SUBSCRIPTIONS_PER_LINK),
    };
  });
  return {
    links,
    moreCustomers: Math.max(0, ordered.length - MAX_PORTAL_LINKS),
    expiresAt: portalTokenExpiry(input.now),
  };
}
