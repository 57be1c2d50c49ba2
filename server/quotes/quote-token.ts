import { createHmac, randomBytes } from 'node:crypto';

/**
 * A quote's link token (decision 142): 24 random bytes, base64url (32 characters). Only its
 * keyed hash is stored, so the table alone opens no quote.
 */
export function createQuoteToken(): string {
  return randomBytes(24).toString('base64url');
}

export const QUOTE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{32}$/;

export function hashQuoteToken(secretKey: string, token: string): string {
  return createHmac('sha256', secretKey).update(`quote-token:${token}`).digest('base64url');
}
