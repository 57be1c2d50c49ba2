import type { CheckoutStatus, CheckoutStatusReading } from '#shared/contracts/checkout.ts';
import type { BillingPorts } from '#server/billing/billing-ports.ts';
import { createLicenceRepository } from '#server/licensing/licences/licence-repository.ts';
import { isCheckoutSessionId } from '../payments/checkout-session-id.ts';
import { isPaymentError } from '../subscriptions/payment-errors.ts';
import { createSubscriptionRepository } from '../subscriptions/subscription-repository.ts';
import { syncDepsOf, syncSubscription, type SyncDeps } from '../subscriptions/sync-subscription.ts';
import { decideRateLimits } from '#server/platform/rate-limit/enforce-rate-limits.ts';
import { rateLimitRules } from '#server/platform/rate-limit/rate-limit-rules.ts';
import type { RateLimiter } from '#server/platform/rate-limit/rate-limiter.ts';
import {
  createCheckoutSessionCache,
  type CheckoutSessionCache,
  type SettledCheckoutSession,
} from './checkout-session-cache.ts';

export type { CheckoutStatus, CheckoutStatusReading };

const unknown: CheckoutStatus = { state: 'unknown' };

/** The licence a paid session's subscription has issued, from our own database; else undefined. */
async function issuedStatus(
  deps: SyncDeps,
  subscriptionId: string,
): Promise<CheckoutStatus | undefined> {
  const mirror = await createSubscriptionRepository(deps.db).find(
    deps.payments.name,
    subscriptionId,
  );
  const licence = mirror?.licenceId
    ? await createLicenceRepository(deps.db).findById(mirror.licenceId)
    : undefined;
  if (!mirror || !licence) return undefined;
  return {
    state: 'issued',
    edition: licence.edition,
    quantity: licence.quantity,
    email: licence.email,
    converted: mirror.licenceOrigin === 'converted',
  };
}

/** The answer for a settled session without asking the provider; undefined when it must be asked. */
async function settledStatus(
  deps: SyncDeps,
  settled: SettledCheckoutSession | undefined,
): Promise<CheckoutStatus | undefined> {
  if (!settled) return undefined;
  if (settled.kind === 'final') return settled.status;
  return issuedStatus(deps, settled.subscriptionId);
}

/**
 * Reads a checkout session for the success page and, when it is complete, runs the same
 * subscription sync as the webhooks: the page never waits for a webhook that may be late. An id
 * of the wrong shape is never sent to the provider; with `sessions`, what the provider said for
 * good is kept there and not asked again, and an issued licence is read from our own database.
 */
export async function readCheckoutStatus(
  deps: SyncDeps,
  sessionId: string | null,
  sessions?: CheckoutSessionCache,
): Promise<CheckoutStatus> {
  if (!isCheckoutSessionId(deps.payments.name, sessionId)) return unknown;
  const known = sessions?.get(sessionId);
  const remembered = await settledStatus(deps, known);
  if (remembered) return remembered;

  let subscriptionId = known?.kind === 'complete' ? known.subscriptionId : null;
  if (!subscriptionId) {
    let session;
    try {
      session = await deps.payments.retrieveCheckoutSession(sessionId);
    } catch (error) {
      if (!isPaymentError(error, 'NotFound')) {
        deps.logger.warn({ err: error }, 'checkout status: provider unavailable');
        return { state: 'processing' };
      }
      sessions?.set(sessionId, { kind: 'final', status: unknown });
      return unknown;
    }
    // An open session can still be paid: asked again next time.
    if (session.status === 'open') return { state: 'open' };
    if (session.status === 'expired') {
      sessions?.set(sessionId, { kind: 'final', status: { state: 'expired' } });
      return { state: 'expired' };
    }
    if (!session.subscriptionId) return { state: 'processing' };
    subscriptionId = session.subscriptionId;
    sessions?.set(sessionId, { kind: 'complete', subscriptionId });
    const issued = await issuedStatus(deps, subscriptionId);
    if (issued) return issued;
  }

  try {
    await syncSubscription(deps, subscriptionId);
  } catch (error) {
    deps.logger.warn({ err: error }, 'checkout status: sync failed');
    return { state: 'processing' };
  }
  return (await issuedStatus(deps, subscriptionId)) ?? { state: 'processing' };
}

export interface CheckoutStatusReader {
  /** The page's answer for `sessionId`, counting a provider lookup against `client`'s limit. */
  read(sessionId: string | null, client: string): Promise<CheckoutStatusReading>;
}

/**
 * The checkout-success page's reads (issue 17, decision 125): malformed ids and settled sessions
 * are answered without the provider; every other read is a provider lookup, limited per client
 * and for all clients together. A refused read asks nothing and says when to try again.
 */
export function createCheckoutStatusReader(
  deps: SyncDeps & { rateLimiter: RateLimiter },
  sessions: CheckoutSessionCache = createCheckoutSessionCache({ clock: deps.clock }),
): CheckoutStatusReader {
  return {
    async read(sessionId, client) {
      if (!isCheckoutSessionId(deps.payments.name, sessionId)) return { status: unknown };
      const remembered = await settledStatus(deps, sessions.get(sessionId));
      if (remembered) return { status: remembered };
      // The client's own limit first: a client over it spends nothing of everyone's.
      const verdict = await decideRateLimits(deps.rateLimiter, [
        { rule: rateLimitRules.checkoutStatusPerIp, subject: client },
        { rule: rateLimitRules.checkoutStatusOverall, subject: 'all' },
      ]);
      if (verdict.retryAfterSeconds !== undefined) {
        return { status: unknown, retryAfterSeconds: verdict.retryAfterSeconds };
      }
      return { status: await readCheckoutStatus(deps, sessionId, sessions) };
    },
  };
}

/** The reader of a running app, with its rate limiter. */
export function checkoutStatusReaderOf(deps: BillingPorts): CheckoutStatusReader {
  return createCheckoutStatusReader({ ...syncDepsOf(deps), rateLimiter: deps.rateLimiter });
}
