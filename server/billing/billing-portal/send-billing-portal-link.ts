import type { BillingPortalRequest } from '#shared/contracts/billing-portal.ts';
import type { Database } from '#server/platform/db/database.ts';
import type { BillingPorts } from '#server/billing/billing-ports.ts';
import {
  createOutboxRepository,
  type QueuedEmail,
} from '#server/platform/email/outbox-repository.ts';
import {
  billingPortalLinksEmail,
  noSubscriptionFoundEmail,
  trialCannotBeManagedEmail,
} from './emails/billing-portal.ts';
import {
  createLicenceRepository,
  type Licence,
} from '#server/licensing/licences/licence-repository.ts';
import { normalizeEmailAddress } from '#server/platform/email/normalize-email-address.ts';
import { createSubscriptionRepository } from '../subscriptions/subscription-repository.ts';
import { buildPortalLinks, manageableSubscription } from './build-portal-links.ts';

export interface SendBillingPortalLinkDeps {
  db: Database;
  clock: () => Date;
  secretKey: string;
  /** The site's origin: the links open its landing page (decision 123). */
  publicBaseUrl: string;
}

export type BillingPortalMailKind =
  'billing-portal-link' | 'billing-portal-trial-only' | 'billing-portal-no-subscription';

/** The portal-access e-mail's dependencies, from the app's. */
export function sendLinkDepsOf(deps: BillingPorts): SendBillingPortalLinkDeps {
  return {
    db: deps.database.db,
    clock: deps.clock,
    secretKey: deps.secretKey,
    publicBaseUrl: deps.env.PUBLIC_BASE_URL,
  };
}

/** The licences grouped by the address each was bought with, in the order first met. */
function byStoredAddress(licences: readonly Licence[]): Map<string, Licence[]> {
  const grouped = new Map<string, Licence[]>();
  for (const licence of licences) {
    grouped.set(licence.email, [...(grouped.get(licence.email) ?? []), licence]);
  }
  return grouped;
}

/**
 * Answers a "manage my subscription" request, whatever the address holds, with the same HTTP
 * answer (decision 055): signed single-use portal links, one per payment customer (decision
 * 092), each e-mailed only to the address its subscriptions were bought with — one e-mail per
 * stored address, never to the address typed (decision 123); else an explanation for a trial;
 * else a hint to use the purchase address.
 */
export async function sendBillingPortalLink(
  deps: SendBillingPortalLinkDeps,
  request: BillingPortalRequest,
): Promise<{ kind: BillingPortalMailKind; emails: number; links: number }> {
  const now = deps.clock();
  const licences = await createLicenceRepository(deps.db).findByNormalizedEmail(
    normalizeEmailAddress(request.emailAddress),
  );
  const paid = licences.filter((licence) => licence.type !== 'Trial' && licence.customerId);
  const trial = licences.find((licence) => licence.type === 'Trial');

  const emails: QueuedEmail[] = [];
  let kind: BillingPortalMailKind;
  let links = 0;
  if (paid.length > 0) {
    kind = 'billing-portal-link';
    const rows = await createSubscriptionRepository(deps.db).findByLicences(
      paid.map((licence) => licence.id),
    );
    const mirror = new Map(rows.map((row) => [row.subscriptionId, row]));
    // Addresses that normalize alike may be different people's: each gets only its own links.
    for (const [address, owned] of byStoredAddress(paid)) {
      const built = buildPortalLinks({
        secretKey: deps.secretKey,
        publicBaseUrl: deps.publicBaseUrl,
        now,
        subscriptions: owned.flatMap(
          (licence) =>
            manageableSubscription(
              licence,
              licence.subscriptionId ? mirror.get(licence.subscriptionId) : undefined,
            ) ?? [],
        ),
      });
      links += built.links.length;
      emails.push({
        ...billingPortalLinksEmail({ ...built, publicBaseUrl: deps.publicBaseUrl }),
        kind,
        to: address,
      });
    }
  } else if (trial) {
    kind = 'billing-portal-trial-only';
    emails.push({
      ...trialCannotBeManagedEmail({
        expiresAt: trial.expiresAt,
        publicBaseUrl: deps.publicBaseUrl,
      }),
      kind,
      to: trial.email,
    });
  } else {
    kind = 'billing-portal-no-subscription';
    emails.push({
      ...noSubscriptionFoundEmail({ publicBaseUrl: deps.publicBaseUrl }),
      kind,
      to: request.emailAddress,
    });
  }
  await deps.db.transaction(async (tx) => {
    const outbox = createOutboxRepository(tx);
    for (const email of emails) await outbox.enqueue(email, now);
  });
  return { kind, emails: emails.length, links };
}
