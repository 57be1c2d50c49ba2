import { createTtlCache } from '#server/platform/cache/ttl-cache.ts';
import type { CheckoutStatus } from '#shared/contracts/checkout.ts';

/** What the provider said about a checkout session that it will never say differently. */
export type SettledCheckoutSession =
  /** Not found, or expired: the page's answer itself. */
  | { kind: 'final'; status: CheckoutStatus }
  /** Paid: the subscription it created (the licence is then read from our own database). */
  | { kind: 'complete'; subscriptionId: string };

export interface CheckoutSessionCache {
  get(sessionId: string): SettledCheckoutSession | undefined;
  set(sessionId: string, settled: SettledCheckoutSession): void;
  readonly size: number;
}

export interface CheckoutSessionCacheOptions {
  clock: () => Date;
  /** Sessions kept; the least recently read goes first. */
  maxEntries?: number;
  /** How long an entry is kept after it was learnt. */
  ttlMs?: number;
}

/**
 * The settled answers of the checkout-success page's provider lookups, in this process's memory
 * (decision 125): a bounded LRU with a time to live, so the page asks the provider about each
 * real session id once, and junk ids cannot grow it without bound.
 */
export function createCheckoutSessionCache(
  options: CheckoutSessionCacheOptions,
): CheckoutSessionCache {
  return createTtlCache<SettledCheckoutSession>({
    maxEntries: options.maxEntries ?? 10_000,
    ttlMs: options.ttlMs ?? 24 * 60 * 60 * 1000,
    clock: options.clock,
  });
}
