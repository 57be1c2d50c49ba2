import { describe, expect, it } from 'vitest';
import { addDays, calendarDateIn } from './calendar-date.ts';

describe('calendar dates', () => {
  it('reads the day in the seller’s time zone, not UTC', () => {
    expect(calendarDateIn(new Date('2026-06-30T21:59:00Z'), 'Europe/Berlin')).toBe('2026-06-30');
    expect(calendarDateIn(new Date('2026-06-30T22:00:00Z'), 'Europe/Berlin')).toBe('2026-07-01');
    expect(calendarDateIn(new Date('2026-12-31T23:30:00Z'), 'Europe/Berlin')).toBe('2027-01-01');
  });

  it('counts days across month ends and leap days', () => {
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDays('2026-12-31', 30)).toBe('2027-01-30');
  });
});
