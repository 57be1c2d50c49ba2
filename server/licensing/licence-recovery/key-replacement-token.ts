import { signLink, verifyLinkSignature } from '#server/platform/crypto/link-token.ts';

/** How long the link in a lost-key e-mail works. */
export const KEY_REPLACEMENT_TOKEN_HOURS = 24;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TOKEN_PATTERN = /^([0-9a-f-]{36})\.([0-9]{1,12})\.([A-Za-z0-9_-]{43})$/;

/** What the MAC covers: also the licence's current key hash, which the token does not show. */
const signed = (licenceId: string, expires: number, keyHash: string) =>
  `${licenceId}:${expires}:${keyHash}`;

/**
 * A link token that lets its holder replace one licence's key: `<licence id>.<expiry>.<mac>`.
 * The MAC covers the licence's current key hash, so the token stops working once the key has
 * been replaced (single use without storing anything) and after 24 hours.
 */
export function createKeyReplacementToken(
  secretKey: string,
  licence: { id: string; keyHash: string },
  now: Date,
): string {
  const expires = Math.floor(now.getTime() / 1000) + KEY_REPLACEMENT_TOKEN_HOURS * 3600;
  const mac = signLink(
    secretKey,
    'licence-key-replacement',
    signed(licence.id, expires, licence.keyHash),
  );
  return `${licence.id}.${expires}.${mac}`;
}

/** The licence id a token names, before its MAC can be checked against the licence. */
export function readKeyReplacementToken(
  token: string,
): { licenceId: string; expires: number } | undefined {
  const match = TOKEN_PATTERN.exec(token);
  if (!match?.[1] || !match[2] || !UUID.test(match[1])) return undefined;
  return { licenceId: match[1], expires: Number(match[2]) };
}

/** Whether the token was made for this licence with its current key, and is not expired. */
export function verifyKeyReplacementToken(
  secretKey: string,
  token: string,
  licence: { id: string; keyHash: string },
  now: Date,
): boolean {
  const match = TOKEN_PATTERN.exec(token);
  const read = readKeyReplacementToken(token);
  if (!match?.[3] || !read || read.licenceId !== licence.id) return false;
  if (read.expires * 1000 <= now.getTime()) return false;
  return verifyLinkSignature(
    secretKey,
    'licence-key-replacement',
    signed(licence.id, read.expires, licence.keyHash),
    match[3],
  );
}
