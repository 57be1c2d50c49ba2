/**
 * How the console writes dates, amounts and counts: in English, dates in UTC (operators in
 * different places read the same time; the audit log is in UTC too).
 */
const dateTime = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});
const dateOnly = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' });

function dateOf(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** `29 Nov 2026, 13:05 UTC`, or a dash. */
export function formatDateTime(value: string | null | undefined): string {
  const date = dateOf(value);
  return date ? `${dateTime.format(date)} UTC` : '–';
}

/** `29 Nov 2026`, or a dash. */
export function formatDate(value: string | null | undefined): string {
  const date = dateOf(value);
  return date ? dateOnly.format(date) : '–';
}

/** An amount in minor units (cents) of a currency: `€1,234.50`. */
export function formatMoney(minor: number | null | undefined, currency: string | null): string {
  if (minor === null || minor === undefined || !currency) return '–';
  try {
    return new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(minor / 100);
  } catch {
    return `${(minor / 100).toFixed(2)} ${currency}`;
  }
}

/** `1,234`. */
export function formatCount(value: number): string {
  return new Intl.NumberFormat('en-GB').format(value);
}
