import type { Currency } from '#shared/pricing/index.ts';

/**
 * When a refund asked for in the console waits for a second operator (issue 41, decision 233):
 * its gross amount is above the currency's `REFUND_APPROVAL_ABOVE`, or that is 0.
 */

/** Gross per refund, per currency, above which a second operator approves it (major units). */
export const DEFAULT_REFUND_APPROVAL_ABOVE: Record<Currency, number> = { EUR: 500, USD: 500 };

export function refundNeedsApproval(
  aboveMinor: Readonly<Record<Currency, number>>,
  refund: { amountMinor: number; currency: Currency },
): boolean {
  const above = aboveMinor[refund.currency];
  return above === 0 || refund.amountMinor > above;
}
