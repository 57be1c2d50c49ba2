import type { CheckoutStatus } from '#shared/contracts/checkout.ts';
import { createLicenceRepository } from '../licences/licence-repository.ts';
import { isPaymentError } from '../payments/payment-errors.ts';
import { createSubscriptionRepository } from '../payments/subscription-repository.ts';
import { syncSubscription, type SyncDeps } from '../payments/sync-subscription.ts';

export type { CheckoutStatus };

/** Provider session ids: Stripe's `cs_…` and the local `lcs_…` (URL-safe base64). */
const SESSION_ID = /^[A-Za-z0-9_-]{8,255}$/;

/**
 * Reads a checkout session for the success page and, when it is complete, runs the same
 * subscription sync as the webhooks: the page never waits for a webhook that may be late.
 */
export async function readCheckoutStatus(
  deps: SyncDeps,
  sessionId: string | null,
): Promise<CheckoutStatus> {
  if (!sessionId || !SESSION_ID.test(sessionId)) return { state: 'unknown' };
  let session;
  try {
    session = await deps.payments.retrieveCheckoutSession(sessionId);
  } catch (error) {
    if (isPaymentError(error, 'NotFound')) return { state: 'unknown' };
    deps.logger.warn({ err: error }, 'checkout status: provider unavailable');
    return { state: 'processing' };
  }
  if (session.status === 'open') return { state: 'open' };
  if (session.status === 'expired') return { state: 'expired' };
  if (!session.subscriptionId) return { state: 'processing' };

  let licenceId: string | null;
  try {
    licenceId = (await syncSubscription(deps, session.subscriptionId)).licenceId;
  } catch (error) {
    deps.logger.warn({ err: error }, 'checkout status: sync failed');
    return { state: 'processing' };
  }
  const licence = licenceId
    ? await createLicenceRepository(deps.db).findById(licenceId)
    : undefined;
  if (!licence) return { state: 'processing' };
  const mirror = await createSubscriptionRepository(deps.db).find(
    deps.payments.name,
    session.subscriptionId,
  );
  return {
    state: 'issued',
    edition: licence.edition,
    quantity: licence.quantity,
    email: licence.email,
    converted: mirror?.licenceOrigin === 'converted',
  };
}
