import { randomUUID } from 'node:crypto';
import type { Executor } from '#server/platform/db/database.ts';
import type { Edition, LicenceType } from '#server/platform/db/schema.ts';
import { generateLicenceKey, hashLicenceKey, licenceKeyHint } from './licence-key.ts';
import { createLicenceRepository, type Licence } from './licence-repository.ts';
import {
  hashEmailAddress,
  normalizeEmailAddress,
} from '#server/platform/email/normalize-email-address.ts';

export interface IssueLicenceInput {
  type: LicenceType;
  edition: Edition;
  quantity?: number;
  email: string;
  productId: string;
  expiresAt: Date | null;
  referralCode?: string | null;
  customerId?: string | null;
  subscriptionId?: string | null;
  subscriptionStatus?: string | null;
  /**
   * 'first': only if the address never held a licence (trials); 'any': also for an address that
   * did (purchases), recording the claim if it is new.
   */
  addressRule: 'first' | 'any';
}

export type IssueLicenceResult =
  { ok: true; licence: Licence; key: string } | { ok: false; code: 'AddressAlreadyUsed' };

/**
 * Creates a licence inside the caller's transaction and returns its key, which exists only in
 * this result: the caller puts it in the licence e-mail (same transaction) and nowhere else.
 */
export async function issueLicence(
  tx: Executor,
  secretKey: string,
  input: IssueLicenceInput,
): Promise<IssueLicenceResult> {
  const repository = createLicenceRepository(tx);
  const id = randomUUID();
  const emailNormalized = normalizeEmailAddress(input.email);
  const claimed = await repository.claimEmailAddress({
    emailHash: hashEmailAddress(secretKey, emailNormalized),
    licenceId: id,
    licenceType: input.type,
  });
  if (!claimed && input.addressRule === 'first') return { ok: false, code: 'AddressAlreadyUsed' };
  const key = generateLicenceKey();
  const licence = await repository.insert({
    id,
    type: input.type,
    edition: input.edition,
    quantity: input.quantity ?? 1,
    email: input.email.trim(),
    emailNormalized,
    keyHash: hashLicenceKey(secretKey, key),
    keyHint: licenceKeyHint(key),
    productId: input.productId,
    referralCode: input.referralCode ?? null,
    expiresAt: input.expiresAt,
    customerId: input.customerId ?? null,
    subscriptionId: input.subscriptionId ?? null,
    subscriptionStatus: input.subscriptionStatus ?? null,
  });
  return { ok: true, licence, key };
}
