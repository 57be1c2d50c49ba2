/** A calendar day, `YYYY-MM-DD`. Quotes and payment documents are dated by the seller's calendar. */
export type CalendarDate = string;

/** The calendar day of `instant` in `timeZone` (the seller's), `YYYY-MM-DD`. */
export function calendarDateIn(instant: Date, timeZone: string): CalendarDate {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((entry) => entry.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** `date` plus `days` calendar days. */
export function addDays(date: CalendarDate, days: number): CalendarDate {
  const next = new Date(`${date}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + days);
  return next.toISOString().slice(0, 10);
}

/** Whether `text` is a real calendar day written `YYYY-MM-DD` (not 2026-02-30), from year 2000 to 2999. */
export function isCalendarDate(text: string): boolean {
  if (!/^2\d{3}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** Calendar days from `from` to `to` (0 when equal, negative when `to` is earlier). */
export function daysBetween(from: CalendarDate, to: CalendarDate): number {
  return Math.round(
    (new Date(`${to}T00:00:00Z`).getTime() - new Date(`${from}T00:00:00Z`).getTime()) / 86_400_000,
  );
}
