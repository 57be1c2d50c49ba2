import { keyedHash } from '#server/platform/crypto/keyed-hash.ts';
import { createLinkToken, LINK_TOKEN_PATTERN } from '#server/platform/crypto/link-token.ts';

/**
 * A quote's link token (decision 142): 24 random bytes, base64url (32 characters). Only its
 * keyed hash is stored, so the table alone opens no quote.
 */
export const createQuoteToken = createLinkToken;

export const QUOTE_TOKEN_PATTERN = LINK_TOKEN_PATTERN;

export function hashQuoteToken(secretKey: string, token: string): string {
  return keyedHash(secretKey, 'quote-token', token);
}
