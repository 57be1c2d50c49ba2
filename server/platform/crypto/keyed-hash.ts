import { createHmac } from 'node:crypto';

/**
 * Every purpose the instance secret keys a hash for, and the encoding its hash is kept or sent
 * in. Stored rows and links already sent depend on each line: never change one, add a purpose
 * instead (decision 164).
 */
export const keyedHashPurposes = {
  /** Trial claims remember a normalized address without storing it (decision 051). */
  email: 'hex',
  /** What `licences.key_hash` keeps instead of the key (decision 050). */
  'licence-key': 'hex',
  /** What `access_tokens` keeps instead of the token (decision 074). */
  'access-token': 'hex',
  /** What `quotes` keeps instead of its link's token (decision 142). */
  'quote-token': 'base64url',
  /** What `invoice_orders` keeps instead of its confirmation link's token (decision 153). */
  'invoice-order-token': 'base64url',
  /** A rate-limit counter's bucket: `<rule>:<subject in lower case>` (decisions 053, 085). */
  'rate-limit': 'base64url',
  /** The signature of a billing-portal link's payload (decision 055). */
  'billing-portal-token': 'base64url',
  /** The signature of a lost-key link: `<licence id>:<expiry>:<key hash>` (decision 075). */
  'licence-key-replacement': 'base64url',
  /** Whose data an export or erasure concerned, in its audit row: the normalized address (decision 193). */
  'privacy-request': 'hex',
  /** The signature of a keep-your-trial-key link's payload (decision 213). */
  'keep-trial-key': 'base64url',
  /** The signature of an invoice or receipt link: the document's number (decision 180). */
  'payment-document': 'base64url',
  /** The licence page's e-mailed code, keyed by its sign-in: `<sign-in id>:<code>` (decision 229). */
  'licence-page-code': 'base64url',
  /** The licence page's e-mailed link token (decision 229). */
  'licence-page-link': 'base64url',
  /** The licence page's session cookie value (decision 229). */
  'licence-page-session': 'base64url',
  /** What `operator_enrolments` keeps instead of an enrolment link's token (decision 226). */
  'operator-enrolment': 'base64url',
  /** What `operator_sessions` keeps instead of the console cookie's token (decision 226). */
  'console-session': 'base64url',
} as const satisfies Record<string, 'hex' | 'base64url'>;

export type KeyedHashPurpose = keyof typeof keyedHashPurposes;

/**
 * HMAC-SHA256 under the instance secret of `<purpose>:<value>` (UTF-8), in the purpose's
 * encoding. The purpose in the input keeps a hash made for one use from passing for another.
 */
export function keyedHash(secretKey: string, purpose: KeyedHashPurpose, value: string): string {
  return createHmac('sha256', secretKey)
    .update(`${purpose}:${value}`)
    .digest(keyedHashPurposes[purpose]);
}
