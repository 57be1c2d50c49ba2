import type { BillingPortalRequest } from '#shared/contracts/billing-portal.ts';
import type { Database } from '../db/client.ts';
import type { AppDeps } from '../deps.ts';
import { createOutboxRepository, type QueuedEmail } from '../email/outbox-repository.ts';
import {
  billingPortalLinksEmail,
  noSubscriptionFoundEmail,
  trialCannotBeManagedEmail,
} from './emails/billing-portal.ts';
import { createLicenceRepository, type Licence } from '../licences/licence-repository.ts';
import { normalizeEmailAddress } from '../licences/normalize-email-address.ts';
import {
  createSubscriptionRepository,
  type SubscriptionRow,
} from '../payments/subscription-repository.ts';
import { buildPortalLinks, type ManageableSubscription } from './build-portal-links.ts';

export interface SendBillingPortalLinkDeps {
  db: Database;
  clock: () => Date;
  secretKey: string;
  publicBaseUrl: string;
  /** Base URL of this account service as browsers reach it (the link points here). */
  accountApiUrl: string;
}

export type BillingPortalMailKind =
  'billing-portal-link' | 'billing-portal-trial-only' | 'billing-portal-no-subscription';

function manageable(
  licence: Licence,
  mirror: ReadonlyMap<string, SubscriptionRow>,
): ManageableSubscription | null {
  if (licence.type === 'Trial' || !licence.customerId) return null;
  const subscription = licence.subscriptionId ? mirror.get(licence.subscriptionId) : undefined;
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

/**
 * Answers a "manage my subscription" request with exactly one e-mail, whatever the address
 * holds, so the HTTP answer reveals nothing (decision 055): signed single-use portal links, one
 * per payment customer of the address (decision 092), sent to the address given at the newest
 * purchase; an explanation for a trial; or a hint to use the purchase address when nothing
 * matches.
 */
/** The portal-access e-mail's dependencies, from the app's. */
export function sendLinkDepsOf(deps: AppDeps): SendBillingPortalLinkDeps {
  return {
    db: deps.database.db,
    clock: deps.clock,
    secretKey: deps.secretKey,
    publicBaseUrl: deps.env.PUBLIC_BASE_URL,
    accountApiUrl: deps.env.ACCOUNT_API_URL ?? deps.env.PUBLIC_BASE_URL,
  };
}

export async function sendBillingPortalLink(
  deps: SendBillingPortalLinkDeps,
  request: BillingPortalRequest,
): Promise<{ kind: BillingPortalMailKind; links: number }> {
  const now = deps.clock();
  const licences = await createLicenceRepository(deps.db).findByNormalizedEmail(
    normalizeEmailAddress(request.emailAddress),
  );
  const paid = licences.filter((licence) => licence.type !== 'Trial' && licence.customerId);
  const trial = licences.find((licence) => licence.type === 'Trial');

  let email: QueuedEmail & { kind: BillingPortalMailKind };
  let links = 0;
  const [newestPaid] = paid;
  if (newestPaid) {
    const rows = await createSubscriptionRepository(deps.db).findByLicences(
      paid.map((licence) => licence.id),
    );
    const mirror = new Map(rows.map((row) => [row.subscriptionId, row]));
    const built = buildPortalLinks({
      secretKey: deps.secretKey,
      accountApiUrl: deps.accountApiUrl,
      now,
      subscriptions: paid.flatMap((licence) => manageable(licence, mirror) ?? []),
    });
    links = built.links.length;
    email = {
      ...billingPortalLinksEmail({ ...built, publicBaseUrl: deps.publicBaseUrl }),
      kind: 'billing-portal-link',
      to: newestPaid.email,
    };
  } else if (trial) {
    email = {
      ...trialCannotBeManagedEmail({
        expiresAt: trial.expiresAt,
        publicBaseUrl: deps.publicBaseUrl,
      }),
      kind: 'billing-portal-trial-only',
      to: trial.email,
    };
  } else {
    email = {
      ...noSubscriptionFoundEmail({ publicBaseUrl: deps.publicBaseUrl }),
      kind: 'billing-portal-no-subscription',
      to: request.emailAddress,
    };
  }
  await createOutboxRepository(deps.db).enqueue(email, now);
  return { kind: email.kind, links };
}
