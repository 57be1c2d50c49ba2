import type { Currency } from './price-config.ts';

const formatters = new Map<Currency, Intl.NumberFormat>();

/** A whole-unit amount as shown on the site and in e-mails, e.g. "$1,305" or "€1,208". */
export function formatPrice(amount: number, currency: Currency): string {
  let formatter = formatters.get(currency);
  if (!formatter) {
    formatter = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency,
      maximumFractionDigits: 0,
      minimumFractionDigits: 0,
    });
    formatters.set(currency, formatter);
  }
  return formatter.format(amount);
}

const centFormatters = new Map<Currency, Intl.NumberFormat>();

/** An amount in cents with both decimals, as quotes show it, e.g. "$14,094.00" or "€1,208.50". */
export function formatCents(cents: number, currency: Currency): string {
  if (!Number.isInteger(cents)) throw new RangeError(`Expected whole cents, got ${cents}`);
  let formatter = centFormatters.get(currency);
  if (!formatter) {
    formatter = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency,
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    centFormatters.set(currency, formatter);
  }
  // Whole cents divided by 100 are exact enough for two decimals up to 2^53 / 100.
  return formatter.format(cents / 100);
}
