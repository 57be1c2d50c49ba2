export { mayPayByInvoice } from '#shared/pricing/index.ts';

/**
 * Pay by invoice (decision 144) as pure functions of (order, invoice, clock): who may pay by
 * invoice, when an invoice is due, when its reminders go out and when its licence is suspended.
 */

/** Net 30: an invoice is due this many days after it is issued. */
export const INVOICE_NET_DAYS = 30;
/** Reminders go out this many days after the due date: on the day, then a week later. */
export const INVOICE_REMINDER_DAYS = [0, 7] as const;
/** The licence is suspended this many days after the due date if the invoice is still open. */
export const INVOICE_SUSPEND_AFTER_DAYS = 14;

const DAY_MS = 24 * 60 * 60 * 1000;

function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * DAY_MS);
}

export function invoiceDueDate(issuedAt: Date): Date {
  return addDays(issuedAt, INVOICE_NET_DAYS);
}

/** The reminder stages (0, 1, …) of an open invoice that are due by `now`. */
export function remindersDue(dueAt: Date, now: Date): number[] {
  return INVOICE_REMINDER_DAYS.flatMap((days, stage) =>
    now >= addDays(dueAt, days) ? [stage] : [],
  );
}

export function suspensionDate(dueAt: Date): Date {
  return addDays(dueAt, INVOICE_SUSPEND_AFTER_DAYS);
}

/** Whether an invoice still open at `now` suspends its licence (restored once it is paid). */
export function invoiceSuspends(unpaidDueAt: Date | null, now: Date): boolean {
  return unpaidDueAt !== null && now >= suspensionDate(unpaidDueAt);
}
