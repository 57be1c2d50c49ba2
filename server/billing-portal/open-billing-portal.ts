import type { Database } from '../db/client.ts';
import type { AppDeps } from '../deps.ts';
import { createBillingPortalTokenRepository } from './billing-portal-token-repository.ts';
import { createLicenceRepository } from '../licences/licence-repository.ts';
import type { Logger } from '../logger.ts';
import type { PaymentProvider } from '../payments/payment-provider.ts';
import { verifyPortalToken } from './portal-token.ts';

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

/**
 * Follows a billing-portal link: checks the token, re-reads its licence (it must still belong to
 * the token's customer), uses the token up (its id is the primary key of a use record, so two
 * clicks cannot both pass) and asks the payment provider for a portal session of that customer.
 */
/** The portal link's dependencies, from the app's (`logger`: the request's). */
export function openPortalDepsOf(deps: AppDeps, logger: Logger): OpenBillingPortalDeps {
  return {
    db: deps.database.db,
    clock: deps.clock,
    secretKey: deps.secretKey,
    payments: deps.payments,
    logger,
    returnUrl: `${deps.env.PUBLIC_BASE_URL}/`,
  };
}

export async function openBillingPortal(
  deps: OpenBillingPortalDeps,
  token: string,
): Promise<OpenBillingPortalResult> {
  const now = deps.clock();
  const verified = verifyPortalToken(deps.secretKey, token, now);
  if (!verified.ok) {
    deps.logger.info({ reason: verified.reason }, 'billing-portal link refused');
    return { ok: false, reason: 'LinkExpired' };
  }
  const licence = await createLicenceRepository(deps.db).findById(verified.licenceId);
  if (!licence?.customerId) {
    deps.logger.info('billing-portal link refused: its licence is gone');
    return { ok: false, reason: 'LinkExpired' };
  }
  // The e-mail labelled the link with this customer's subscriptions: never open another's.
  if (licence.customerId !== verified.customerId) {
    deps.logger.info({ licenceId: licence.id }, 'billing-portal link refused: customer changed');
    return { ok: false, reason: 'LinkExpired' };
  }

  // Use records are only needed until their token would have expired anyway.
  const tokenUses = createBillingPortalTokenRepository(deps.db);
  await tokenUses.deleteExpired(now);
  if (!(await tokenUses.recordUse(verified.tokenId, now, verified.expiresAt))) {
    deps.logger.info('billing-portal link refused: already used');
    return { ok: false, reason: 'LinkExpired' };
  }

  try {
    const session = await deps.payments.createBillingPortalSession({
      customerId: verified.customerId,
      returnUrl: deps.returnUrl,
    });
    return { ok: true, url: session.url };
  } catch (error) {
    deps.logger.error({ err: error, licenceId: licence.id }, 'billing-portal session failed');
    // Give the link back: the visitor did nothing wrong.
    await tokenUses.forgetUse(verified.tokenId, now);
    return { ok: false, reason: 'ProviderUnavailable' };
  }
}
