import {
  openBillingPortalRequestSchema,
  type PortalLinkStatus,
} from '#shared/contracts/billing-portal.ts';
import type { Database } from '#server/platform/db/database.ts';
import type { BillingPorts } from '#server/billing/billing-ports.ts';
import { formatEmailDate } from '#server/platform/email/render-email.ts';
import { createSubscriptionRepository } from '../subscriptions/subscription-repository.ts';
import { createBillingPortalTokenRepository } from './billing-portal-token-repository.ts';
import { manageableSubscription } from './build-portal-links.ts';
import { checkPortalLink } from './check-portal-link.ts';
import { describeSubscription } from './describe-subscription.ts';

export interface ReadPortalLinkDeps {
  db: Database;
  clock: () => Date;
  secretKey: string;
}

/** The landing page's dependencies, from the app's. */
export function readPortalLinkDepsOf(deps: BillingPorts): ReadPortalLinkDeps {
  return { db: deps.database.db, clock: deps.clock, secretKey: deps.secretKey };
}

/**
 * What the billing-portal landing page shows for its link, read without using it (a GET may be
 * a mail scanner, decision 123): whether the button can still open the portal, and the
 * subscription the e-mail named beside the link (plan, billing, key ending: what the e-mail
 * already shows whoever holds the link).
 */
export async function readPortalLink(
  deps: ReadPortalLinkDeps,
  token: string | null,
): Promise<PortalLinkStatus> {
  if (!token) return { state: 'missing' };
  // The same bounds as the button's request: an oversized token costs no work.
  if (!openBillingPortalRequestSchema.safeParse({ token }).success) return { state: 'invalid' };
  const now = deps.clock();
  const link = await checkPortalLink(deps.db, deps.secretKey, token, now);
  if (!link.ok) return { state: 'invalid' };
  if (await createBillingPortalTokenRepository(deps.db).isUsed(link.tokenId)) {
    return { state: 'invalid' };
  }
  const mirror = await createSubscriptionRepository(deps.db).findByLicence(link.licence.id);
  const subscription = manageableSubscription(link.licence, mirror);
  if (!subscription) return { state: 'invalid' };
  const time = link.expiresAt.toISOString().slice(11, 16);
  return {
    state: 'ready',
    subscription: describeSubscription(subscription),
    validUntil: `${formatEmailDate(link.expiresAt)}, ${time} UTC`,
  };
}
