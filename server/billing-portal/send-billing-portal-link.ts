import type { BillingPortalRequest } from '../../shared/contracts/billing-portal.ts';
import type { Database } from '../db/client.ts';
import { createOutboxRepository, type QueuedEmail } from '../email/outbox-repository.ts';
import {
  billingPortalLinkEmail,
  noSubscriptionFoundEmail,
  trialCannotBeManagedEmail,
} from '../email/templates/billing-portal.ts';
import { createLicenceRepository } from '../licences/licence-repository.ts';
import { normalizeEmailAddress } from '../licences/normalize-email-address.ts';
import { createPortalToken } from './portal-token.ts';

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

/**
 * Answers a "manage my subscription" request with exactly one e-mail, whatever the address
 * holds, so the HTTP answer reveals nothing (decision 055): a signed single-use portal link for a
 * subscription (sent to the address given at purchase), an explanation for a trial, or a hint
 * to use the purchase address when nothing matches.
 */
export async function sendBillingPortalLink(
  deps: SendBillingPortalLinkDeps,
  request: BillingPortalRequest,
): Promise<{ kind: BillingPortalMailKind }> {
  const now = deps.clock();
  const licences = await createLicenceRepository(deps.db).findByNormalizedEmail(
    normalizeEmailAddress(request.emailAddress),
  );
  const subscription = licences.find((licence) => licence.type !== 'Trial' && licence.customerId);
  const trial = licences.find((licence) => licence.type === 'Trial');

  let email: QueuedEmail & { kind: BillingPortalMailKind };
  if (subscription) {
    const { token, expiresAt } = createPortalToken({
      secretKey: deps.secretKey,
      licenceId: subscription.id,
      now,
    });
    const url = `${deps.accountApiUrl}/account/v1/billing-portal?token=${encodeURIComponent(token)}`;
    email = {
      ...billingPortalLinkEmail({ url, expiresAt, publicBaseUrl: deps.publicBaseUrl }),
      kind: 'billing-portal-link',
      to: subscription.email,
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
  return { kind: email.kind };
}
