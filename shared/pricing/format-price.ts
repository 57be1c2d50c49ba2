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
