import { randomBytes } from 'node:crypto';
import { keyedHash } from '#server/platform/crypto/keyed-hash.ts';

/**
 * Access tokens: `orgsmith_at_` and 43 base64url characters (256 random bits). The prefix lets
 * secret scanners and people recognise a leaked token; only an HMAC of it is stored.
 */
export const ACCESS_TOKEN_PREFIX = 'orgsmith_at_';
const TOKEN_PATTERN = /^orgsmith_at_[A-Za-z0-9_-]{43}$/;
const HINT_LENGTH = 4;

export function generateAccessToken(): string {
  return `${ACCESS_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** Whether the text has the shape of an access token (before any database look-up). */
export function looksLikeAccessToken(text: string): boolean {
  return TOKEN_PATTERN.test(text);
}

/** What the database keeps instead of the token: an HMAC under the instance secret. */
export function hashAccessToken(secretKey: string, token: string): string {
  return keyedHash(secretKey, 'access-token', token);
}

/** The last characters of a token, so its owner can tell tokens apart in a list. */
export function accessTokenHint(token: string): string {
  return token.slice(-HINT_LENGTH);
}
