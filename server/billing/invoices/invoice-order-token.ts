import { randomBytes } from 'node:crypto';
import { keyedHash } from '#server/platform/crypto/keyed-hash.ts';
import { createLinkToken, LINK_TOKEN_PATTERN } from '#server/platform/crypto/link-token.ts';

/**
 * The token of an invoice order's confirmation link (decision 153): 24 random bytes, base64url
 * (32 characters). Only its keyed hash is stored, so the table alone confirms no order.
 */
export const createInvoiceOrderToken = createLinkToken;

export const INVOICE_ORDER_TOKEN_PATTERN = LINK_TOKEN_PATTERN;

export function hashInvoiceOrderToken(secretKey: string, token: string): string {
  return keyedHash(secretKey, 'invoice-order-token', token);
}

/** An order's id as operators see it: `io_` and 16 random characters. */
export function createInvoiceOrderId(): string {
  return `io_${randomBytes(12).toString('base64url')}`;
}
