import { randomBytes } from 'node:crypto';
import { constantTimeEqual } from './constant-time-equal.ts';
import { keyedHash } from './keyed-hash.ts';

/*
 * The links we e-mail or hand out carry one of two kinds of token (decision 164):
 * - a random token whose keyed hash alone is stored (quotes, invoice orders): the link works
 *   while its row does, and the table alone opens nothing;
 * - a signed token, `<text>.<signature>`, that needs no row to be checked (the billing portal,
 *   whose payload names a single-use record; a lost-key link, whose signature also covers the
 *   licence's key hash, so it dies when the key is replaced; a keep-your-trial-key link, whose
 *   state — the trial still unconverted, the subscription still on its new licence — makes it
 *   single-use, decision 213).
 */

/** A stored link's token: 24 random bytes, base64url (32 characters). */
export function createLinkToken(): string {
  return randomBytes(24).toString('base64url');
}

/** The shape of `createLinkToken()`'s tokens, checked before any look-up. */
export const LINK_TOKEN_PATTERN = /^[A-Za-z0-9_-]{32}$/;

/** The purposes whose tokens are signed rather than stored. */
export type SignedLinkPurpose =
  'billing-portal-token' | 'licence-key-replacement' | 'keep-trial-key';

/** The signature of `signed` for a link of `purpose`: base64url, 43 characters. */
export function signLink(secretKey: string, purpose: SignedLinkPurpose, signed: string): string {
  return keyedHash(secretKey, purpose, signed);
}

/** Whether `signature` is `signed`'s for `purpose`, compared in constant time. */
export function verifyLinkSignature(
  secretKey: string,
  purpose: SignedLinkPurpose,
  signed: string,
  signature: string,
): boolean {
  return constantTimeEqual(signLink(secretKey, purpose, signed), signature);
}
