import { constantTimeEqual } from '#server/platform/crypto/constant-time-equal.ts';
import { keyedHash } from '#server/platform/crypto/keyed-hash.ts';

/**
 * A document's link is signed (decision 180): its token is the keyed hash of its number under
 * the instance secret, so it can be written into any e-mail again and nothing is stored, yet a
 * guessed number or another document's token opens nothing.
 */
export function paymentDocumentToken(secretKey: string, number: string): string {
  return keyedHash(secretKey, 'payment-document', number);
}

export const PAYMENT_DOCUMENT_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function isPaymentDocumentToken(secretKey: string, number: string, token: string): boolean {
  return (
    PAYMENT_DOCUMENT_TOKEN_PATTERN.test(token) &&
    constantTimeEqual(token, paymentDocumentToken(secretKey, number))
  );
}

export function paymentDocumentUrl(
  publicBaseUrl: string,
  secretKey: string,
  number: string,
): string {
  const query = new URLSearchParams({ token: paymentDocumentToken(secretKey, number) }).toString();
  return new URL(`/documents/${number}.pdf?${query}`, publicBaseUrl).toString();
}
