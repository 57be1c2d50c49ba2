import type { Currency } from './price-config.ts';

/**
 * Prices are formatted by hand, not with `Intl.NumberFormat`: the first Intl formatter a page
 * creates makes the browser load its ICU data, 20–40 ms on a fast machine and four times that on
 * Lighthouse's phone — the pricing page's largest blocking task. Two currencies in en-US style need
 * no locale data, and the text is the same on the server and in every browser (no ICU version drift).
 */
const currencySymbols: Record<Currency, string> = { USD: '$', EUR: '€' };

/** Digits of a whole, non-negative number in groups of three: 1305 → "1,305". */
function groupThousands(whole: number): string {
  const digits = String(whole);
  let grouped = '';
  for (let end = digits.length; end > 0; end -= 3) {
    const group = digits.slice(Math.max(0, end - 3), end);
    grouped = grouped ? `${group},${grouped}` : group;
  }
  return grouped;
}

function assertSafe(value: number, what: string): void {
  if (!Number.isSafeInteger(value))
    throw new RangeError(`Expected a safe whole ${what}, got ${value}`);
}

/**
 * A whole-unit amount as shown on the site and in e-mails, e.g. "$1,305" or "€1,208". A fraction
 * is rounded half away from zero, as Intl's default does.
 */
export function formatPrice(amount: number, currency: Currency): string {
  const whole = Math.round(Math.abs(amount));
  assertSafe(whole, 'amount');
  const sign = amount < 0 && whole !== 0 ? '-' : '';
  return `${sign}${currencySymbols[currency]}${groupThousands(whole)}`;
}

/** An amount in cents with both decimals, as quotes show it, e.g. "$14,094.00" or "€1,208.50". */
export function formatCents(cents: number, currency: Currency): string {
  if (!Number.isInteger(cents)) throw new RangeError(`Expected whole cents, got ${cents}`);
  assertSafe(cents, 'number of cents');
  const magnitude = Math.abs(cents);
  const units = Math.floor(magnitude / 100);
  const rest = String(magnitude % 100).padStart(2, '0');
  const sign = cents < 0 ? '-' : '';
  return `${sign}${currencySymbols[currency]}${groupThousands(units)}.${rest}`;
}
