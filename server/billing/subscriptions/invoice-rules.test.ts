import { describe, expect, it } from 'vitest';
import {
  invoiceDueDate,
  invoiceSuspends,
  mayPayByInvoice,
  remindersDue,
  suspensionDate,
} from './invoice-rules.ts';

const issued = new Date('2026-03-01T10:00:00Z');
const due = new Date('2026-03-31T10:00:00Z');
const at = (iso: string) => new Date(iso);

describe('mayPayByInvoice', () => {
  it('offers invoices for yearly Pro and Enterprise only', () => {
    expect(mayPayByInvoice({ edition: 'Pro', billingPeriod: 'yearly' })).toBe(true);
    expect(mayPayByInvoice({ edition: 'Enterprise', billingPeriod: 'yearly' })).toBe(true);
    expect(mayPayByInvoice({ edition: 'Pro', billingPeriod: 'monthly' })).toBe(false);
    expect(mayPayByInvoice({ edition: 'Enterprise', billingPeriod: 'monthly' })).toBe(false);
    expect(mayPayByInvoice({ edition: 'Starter', billingPeriod: 'yearly' })).toBe(false);
  });
});

describe('invoice due date', () => {
  it('is net 30 from the day the invoice is issued', () => {
    expect(invoiceDueDate(issued)).toEqual(due);
  });
});

describe('remindersDue', () => {
  it('sends none before the due date', () => {
    expect(remindersDue(due, at('2026-03-31T09:59:59Z'))).toEqual([]);
  });
  it('sends the first on the due date and the second a week later', () => {
    expect(remindersDue(due, due)).toEqual([0]);
    expect(remindersDue(due, at('2026-04-07T09:59:59Z'))).toEqual([0]);
    expect(remindersDue(due, at('2026-04-07T10:00:00Z'))).toEqual([0, 1]);
    expect(remindersDue(due, at('2026-06-01T00:00:00Z'))).toEqual([0, 1]);
  });
});

describe('suspension', () => {
  it('comes two weeks after the due date', () => {
    expect(suspensionDate(due)).toEqual(at('2026-04-14T10:00:00Z'));
    expect(invoiceSuspends(due, at('2026-04-14T09:59:59Z'))).toBe(false);
    expect(invoiceSuspends(due, at('2026-04-14T10:00:00Z'))).toBe(true);
  });
  it('never applies without an open invoice (paid restores)', () => {
    expect(invoiceSuspends(null, at('2030-01-01T00:00:00Z'))).toBe(false);
  });
});
