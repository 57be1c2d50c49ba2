import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { signLink, verifyLinkSignature } from '#server/platform/crypto/link-token.ts';

/** A billing-portal link works for a day (decision 055). */
export const PORTAL_TOKEN_TTL_MS = 24 * 60 * 60_000;

const payloadSchema = z.strictObject({
  /** Token id: the single-use record's key. */
  t: z.string().min(16).max(64),
  /** Licence id: re-read when the link is used; it must still exist and belong to `c`. */
  l: z.uuid(),
  /** The payment customer whose portal the link opens (one link per customer, decision 092). */
  c: z.string().min(1).max(255),
  /** Expiry, seconds since the epoch. */
  e: z.number().int().positive(),
});

export interface PortalToken {
  token: string;
  tokenId: string;
  licenceId: string;
  customerId: string;
  expiresAt: Date;
}

/** When a link created now expires, in whole seconds (the token stores seconds). */
export function portalTokenExpiry(now: Date): Date {
  return new Date(Math.floor((now.getTime() + PORTAL_TOKEN_TTL_MS) / 1000) * 1000);
}

/** `<base64url payload>.<base64url HMAC-SHA256>`: tamper-proof and self-expiring. */
export function createPortalToken(input: {
  secretKey: string;
  licenceId: string;
  customerId: string;
  now: Date;
}): PortalToken {
  const tokenId = randomBytes(16).toString('base64url');
  const expiresAt = portalTokenExpiry(input.now);
  const payload = Buffer.from(
    JSON.stringify({
      t: tokenId,
      l: input.licenceId,
      c: input.customerId,
      e: expiresAt.getTime() / 1000,
    }),
  ).toString('base64url');
  return {
    token: `${payload}.${signLink(input.secretKey, 'billing-portal-token', payload)}`,
    tokenId,
    licenceId: input.licenceId,
    customerId: input.customerId,
    expiresAt,
  };
}

export type VerifiedPortalToken =
  | { ok: true; tokenId: string; licenceId: string; customerId: string; expiresAt: Date }
  | { ok: false; reason: 'Malformed' | 'Forged' | 'Expired' };

/** Checks the signature first, then the content, then the expiry. */
export function verifyPortalToken(
  secretKey: string,
  token: string,
  now: Date,
): VerifiedPortalToken {
  const [payload, signature, ...rest] = token.split('.');
  if (!payload || !signature || rest.length > 0) return { ok: false, reason: 'Malformed' };
  if (!verifyLinkSignature(secretKey, 'billing-portal-token', payload, signature)) {
    return { ok: false, reason: 'Forged' };
  }
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'Malformed' };
  }
  const parsed = payloadSchema.safeParse(decoded);
  if (!parsed.success) return { ok: false, reason: 'Malformed' };
  const expiresAt = new Date(parsed.data.e * 1000);
  if (expiresAt.getTime() <= now.getTime()) return { ok: false, reason: 'Expired' };
  return {
    ok: true,
    tokenId: parsed.data.t,
    licenceId: parsed.data.l,
    customerId: parsed.data.c,
    expiresAt,
  };
}
