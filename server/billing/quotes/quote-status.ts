import { siteConfig } from '#shared/site-config.ts';
import { quoteIsOpen } from './quote-number.ts';
import type { StoredQuote } from './quote-repository.ts';

/**
 * A quote's status (decision 154): `accepted` once an invoice order from it was confirmed or its
 * card checkout was paid (stored, decision 214),
 * else `open` through its last valid day and `expired` after it (derived from `valid_until`).
 */
export type QuoteStatus = 'open' | 'accepted' | 'expired';

export function quoteStatusOf(
  quote: Pick<StoredQuote, 'status' | 'validUntil'>,
  now: Date,
): QuoteStatus {
  if (quote.status === 'accepted') return 'accepted';
  return quoteIsOpen(quote.validUntil, now, siteConfig.company.timeZone) ? 'open' : 'expired';
}
