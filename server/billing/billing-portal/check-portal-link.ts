import type { Executor } from '#server/platform/db/database.ts';
import {
  createLicenceRepository,
  type Licence,
} from '#server/licensing/licences/licence-repository.ts';
import { verifyPortalToken } from './portal-token.ts';

export type CheckedPortalLink =
  | {
      ok: true;
      tokenId: string;
      customerId: string;
      expiresAt: Date;
      licence: Licence;
    }
  | { ok: false; reason: 'Malformed' | 'Forged' | 'Expired' | 'LicenceGone' | 'CustomerChanged' };

/**
 * Checks a billing-portal link without using it: the token's signature and expiry, then its
 * licence, re-read, which must still exist and belong to the token's customer (decision 092).
 */
export async function checkPortalLink(
  db: Executor,
  secretKey: string,
  token: string,
  now: Date,
): Promise<CheckedPortalLink> {
  const verified = verifyPortalToken(secretKey, token, now);
  if (!verified.ok) return verified;
  const licence = await createLicenceRepository(db).findById(verified.licenceId);
  if (!licence?.customerId) return { ok: false, reason: 'LicenceGone' };
  // The e-mail labelled the link with this customer's subscriptions: never open another's.
  if (licence.customerId !== verified.customerId) return { ok: false, reason: 'CustomerChanged' };
  return {
    ok: true,
    tokenId: verified.tokenId,
    customerId: verified.customerId,
    expiresAt: verified.expiresAt,
    licence,
  };
}
