import { keyedHash } from '#server/platform/crypto/keyed-hash.ts';

const gmailDomains = new Set(['gmail.com', 'googlemail.com']);

/**
 * The mailbox an address reaches, for "one trial per person" (decision 051): trimmed, lower case,
 * without a `+tag`, and for Gmail without dots and with googlemail.com folded into gmail.com.
 */
export function normalizeEmailAddress(address: string): string {
  const trimmed = address.trim().toLowerCase();
  const at = trimmed.lastIndexOf('@');
  if (at < 1) return trimmed;
  let local = trimmed.slice(0, at);
  let domain = trimmed.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (gmailDomains.has(domain)) {
    local = local.replaceAll('.', '');
    domain = 'gmail.com';
  }
  return `${local}@${domain}`;
}

/** The keyed hash under which trial claims remember an address without storing it. */
export function hashEmailAddress(secretKey: string, normalizedAddress: string): string {
  return keyedHash(secretKey, 'email', normalizedAddress);
}
