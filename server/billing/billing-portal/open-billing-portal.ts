import type { Database } from '#server/platform/db/database.ts';
import type { BillingPorts } from '#server/billing/billing-ports.ts';
import type { Logger } from '#server/platform/logger.ts';
import type { PaymentProvider } from '../subscriptions/payment-provider.ts';
import { createBillingPortalTokenRepository } from './billing-portal-token-repository.ts';
import { checkPortalLink } from './check-portal-link.ts';

export interface OpenBillingPortalDeps {
  db: Database;
  clock: () => Date;
  secretKey: string;
  payments: PaymentProvider;
  logger: Logger;
  /** Where the portal's "back" link leads. */
  returnUrl: string;
}

export type OpenBillingPortalResult =
  | { ok: true; url: string }
  /**
   * The link cannot be used (forged, expired, used, its licence is gone or no longer belongs to
   * the link's customer): ask for a new one.
   */
  | { ok: false; reason: 'LinkExpired' }
  /** The payment provider failed; the link stays usable. */
  | { ok: false; reason: 'ProviderUnavailable' };

/** The portal link's dependencies, from the app's (`logger`: the request's). */
export function openPortalDepsOf(deps: BillingPorts, logger: Logger): OpenBillingPortalDeps {
  return {
    db: deps.database.db,
    clock: deps.clock,
    secretKey: deps.secretKey,
    payments: deps.payments,
    logger,
    returnUrl: `${deps.env.PUBLIC_BASE_URL}/`,
  };
}

/**
 * Uses a billing-portal link: the landing page's button sends its token (a GET never comes
 * here, decision 123). Checks the link, uses the token up (its id is the primary key of a use
 * record, so two clicks cannot both pass) and asks the payment provider for a portal session of
 * the link's customer.
 */
export async function openBillingPortal(
  deps: OpenBillingPortalDeps,
  token: string,
): Promise<OpenBillingPortalResult> {
  const now = deps.clock();
  const link = await checkPortalLink(deps.db, deps.secretKey, token, now);
  if (!link.ok) {
    deps.logger.info({ reason: link.reason }, 'billing-portal link refused');
    return { ok: false, reason: 'LinkExpired' };
  }

  // Use records are only needed until their token would have expired anyway.
  const tokenUses = createBillingPortalTokenRepository(deps.db);
  await tokenUses.deleteExpired(now);
  if (!(await tokenUses.recordUse(link.tokenId, now, link.expiresAt))) {
    deps.logger.info('billing-portal link refused: already used');
    return { ok: false, reason: 'LinkExpired' };
  }

  try {
    const session = await deps.payments.createBillingPortalSession({
      customerId: link.customerId,
      returnUrl: deps.returnUrl,
    });
    return { ok: true, url: session.url };
  } catch (error) {
    deps.logger.error({ err: error, licenceId: link.licence.id }, 'billing-portal session failed');
    // Give the link back: the visitor did nothing wrong.
    await tokenUses.forgetUse(link.tokenId, now);
    return { ok: false, reason: 'ProviderUnavailable' };
  }
}
