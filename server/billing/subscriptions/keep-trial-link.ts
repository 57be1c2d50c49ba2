import { z } from 'zod';
import { KEEP_TRIAL_KEY_PAGE, KEEP_TRIAL_LINK_DAYS } from '#shared/contracts/keep-trial-key.ts';
import { signLink, verifyLinkSignature } from '#server/platform/crypto/link-token.ts';
import type { PaymentProviderName } from './payment-types.ts';

const DAY_MS = 24 * 60 * 60_000;

const payloadSchema = z.strictObject({
  /** The payment provider of the subscription. */
  p: z.enum(['stripe', 'local']),
  /** The subscription bought with the trial's address. */
  s: z.string().min(1).max(255),
  /** The trial licence that may take the subscription over. */
  t: z.uuid(),
  /** The licence issued at purchase, which the trial replaces. */
  n: z.uuid(),
  /** Expiry, seconds since the epoch. */
  e: z.number().int().positive(),
});

export interface KeepTrialLink {
  provider: PaymentProviderName;
  subscriptionId: string;
  trialLicenceId: string;
  issuedLicenceId: string;
  expiresAt: Date;
}

/**
 * `<base64url payload>.<signature>` (decision 213): no row; the link is single-use because using
 * it changes what it checks (the trial is no longer unconverted, the subscription no longer on
 * the issued licence).
 */
export function createKeepTrialToken(
  secretKey: string,
  link: Omit<KeepTrialLink, 'expiresAt'>,
  now: Date,
): string {
  const expiresAt = Math.floor((now.getTime() + KEEP_TRIAL_LINK_DAYS * DAY_MS) / 1000);
  const payload = Buffer.from(
    JSON.stringify({
      p: link.provider,
      s: link.subscriptionId,
      t: link.trialLicenceId,
      n: link.issuedLicenceId,
      e: expiresAt,
    }),
  ).toString('base64url');
  return `${payload}.${signLink(secretKey, 'keep-trial-key', payload)}`;
}

/** The page the licence e-mail links to (a GET of it changes nothing). */
export function keepTrialUrl(publicBaseUrl: string, token: string): string {
  const query = new URLSearchParams({ token }).toString();
  return new URL(`${KEEP_TRIAL_KEY_PAGE}?${query}`, publicBaseUrl).toString();
}

/** The link's content when its signature holds and it has not expired; else undefined. */
export function verifyKeepTrialToken(
  secretKey: string,
  token: string,
  now: Date,
): KeepTrialLink | undefined {
  const [payload, signature, ...rest] = token.split('.');
  if (!payload || !signature || rest.length > 0) return undefined;
  if (!verifyLinkSignature(secretKey, 'keep-trial-key', payload, signature)) return undefined;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const parsed = payloadSchema.safeParse(decoded);
  if (!parsed.success) return undefined;
  const expiresAt = new Date(parsed.data.e * 1000);
  if (expiresAt.getTime() <= now.getTime()) return undefined;
  return {
    provider: parsed.data.p,
    subscriptionId: parsed.data.s,
    trialLicenceId: parsed.data.t,
    issuedLicenceId: parsed.data.n,
    expiresAt,
  };
}
