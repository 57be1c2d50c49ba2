import { createHmac, randomBytes } from 'node:crypto';

/**
 * The token of an invoice order's confirmation link (decision 153): 24 random bytes, base64url
 * (32 characters). Only its keyed hash is stored, so the table alone confirms no order.
 */
export function createInvoiceOrderToken(): string {
  return randomBytes(24).toString('base64url');
}

export const INVOICE_ORDER_TOKEN_PATTERN = /^[A-Za-z0-9_-]{32}$/;

export function hashInvoiceOrderToken(secretKey: string, token: string): string {
  return createHmac('sha256', secretKey).update(`invoice-order-token:${token}`).digest('base64url');
}

/** An order's id as operators see it: `io_` and 16 random characters. */
export function createInvoiceOrderId(): string {
  return `io_${randomBytes(12).toString('base64url')}`;
}
