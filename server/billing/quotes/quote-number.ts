import { addDays, calendarDateIn, type CalendarDate } from '#server/billing/calendar-date.ts';

/**
 * Quote numbers (decision 142): `Q-<year>-<sequence>`, the sequence counted per year from 1 and
 * written with at least four digits (`Q-2026-0007`, `Q-2026-12345` after 9999).
 */
export const QUOTE_NUMBER_PATTERN = /^Q-(\d{4})-(\d{4,9})$/;

export function formatQuoteNumber(year: number, sequence: number): string {
  if (!Number.isInteger(year) || year < 1000 || year > 9999) {
    throw new RangeError(`A quote year has four digits, got ${year}`);
  }
  if (!Number.isInteger(sequence) || sequence < 1 || sequence > 999_999_999) {
    throw new RangeError(`A quote sequence is a whole number from 1, got ${sequence}`);
  }
  return `Q-${year}-${String(sequence).padStart(4, '0')}`;
}

/** The year and sequence of a quote number in our own spelling, else undefined. */
export function parseQuoteNumber(text: string): { year: number; sequence: number } | undefined {
  const match = QUOTE_NUMBER_PATTERN.exec(text);
  if (!match) return undefined;
  const year = Number(match[1]);
  const sequence = Number(match[2]);
  // `Q-2026-00012` is not how 12 is written: one spelling per quote.
  return formatQuoteNumber(year, Math.max(sequence, 1)) === text ? { year, sequence } : undefined;
}

/** A quote's prices hold for this many days after its date, the last day included. */
export const QUOTE_VALIDITY_DAYS = 30;

/** The quote's date, its numbering year and its last valid day, for a quote made at `now`. */
export function quoteDates(now: Date, timeZone: string) {
  const quoteDate = calendarDateIn(now, timeZone);
  return {
    quoteDate,
    year: Number(quoteDate.slice(0, 4)),
    validUntil: addDays(quoteDate, QUOTE_VALIDITY_DAYS),
  };
}

/** Whether a quote valid until `validUntil` still holds at `now` (through that whole day). */
export function quoteIsOpen(validUntil: CalendarDate, now: Date, timeZone: string): boolean {
  return calendarDateIn(now, timeZone) <= validUntil;
}
