import { z } from 'zod';

/**
 * Amounts in another currency stated in euros (decision 221). A rate is what the ECB publishes:
 * units of the currency per 1 EUR (`1.0512` USD). Rates are kept as decimal text with at most six
 * places and computed on as whole millionths, so no binary fraction ever touches money.
 */

/** `1.0512`, `161.23`, `0.8765`: a positive decimal with at most 6 places (the ECB gives 4–5 significant digits). */
export const RATE_PATTERN = /^(?:0|[1-9]\d{0,11})(?:\.\d{1,6})?$/;

export const rateTextSchema = z
  .string()
  .regex(RATE_PATTERN, 'a rate like 1.0512 (units of the currency per 1 EUR, at most 6 decimals)')
  .refine((text) => RATE_PATTERN.test(text) && rateMillionths(text) > 0n, 'a rate above 0');

/** The rate as whole millionths: `1.0512` → 1051200n. */
export function rateMillionths(rate: string): bigint {
  if (!RATE_PATTERN.test(rate)) throw new RangeError(`Not a rate: ${rate}`);
  const [whole = '0', fraction = ''] = rate.split('.');
  return BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
}

/** The rate as it is printed and stored: no trailing zeros beyond the fourth decimal (`1.051200` → `1.0512`). */
export function normalizeRate(rate: string): string {
  const millionths = rateMillionths(rate);
  const whole = millionths / 1_000_000n;
  const fraction = String(millionths % 1_000_000n)
    .padStart(6, '0')
    .replace(/0+$/, '');
  return `${whole}.${fraction.padEnd(4, '0')}`;
}

/**
 * `amountMinor` cents of the currency in euro cents at `rate` (per 1 EUR): divided exactly, then
 * rounded half up to the cent — a half cent goes away from zero, so a credit (negative) rounds
 * as its invoice does. $10.51 at 1.0512 is 999.8097… → €10.00; $0.05 at 2 is 2.5 → 3 cents.
 */
export function toEuroMinor(amountMinor: number, rate: string): number {
  if (!Number.isSafeInteger(amountMinor))
    throw new RangeError(`Expected whole cents, got ${amountMinor}`);
  const divisor = rateMillionths(rate);
  if (divisor <= 0n) throw new RangeError(`Rate must be above 0: ${rate}`);
  const numerator = BigInt(Math.abs(amountMinor)) * 1_000_000n;
  const quotient = numerator / divisor;
  const rounded = (numerator % divisor) * 2n >= divisor ? quotient + 1n : quotient;
  const euros = Number(rounded);
  return amountMinor < 0 && euros !== 0 ? -euros : euros;
}

const dateSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const minor = z.number().int().safe();

/**
 * A document's amounts in euros at the rate recorded when it was issued (frozen with it): the
 * rate, its day and source, and net, VAT and gross each converted (so gross may differ from
 * net + VAT by a cent; the VAT figure is the one the law asks for).
 */
export const euroAmountsSchema = z.object({
  perEur: z.string().regex(RATE_PATTERN),
  rateOn: dateSchema,
  source: z.string(),
  netMinor: minor,
  vatMinor: minor,
  grossMinor: minor,
});

export type EuroAmounts = z.infer<typeof euroAmountsSchema>;

/** A recorded rate, as the repository returns it. */
export interface RecordedRate {
  currency: string;
  rateOn: string;
  perEur: string;
  source: string;
}

export function euroAmountsAt(
  amounts: { netMinor: number; vatMinor: number; grossMinor: number },
  rate: RecordedRate,
): EuroAmounts {
  const perEur = normalizeRate(rate.perEur);
  return {
    perEur,
    rateOn: rate.rateOn,
    source: rate.source,
    netMinor: toEuroMinor(amounts.netMinor, perEur),
    vatMinor: toEuroMinor(amounts.vatMinor, perEur),
    grossMinor: toEuroMinor(amounts.grossMinor, perEur),
  };
}
