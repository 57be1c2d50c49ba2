import { and, asc, gte, lt, sql } from 'drizzle-orm';
import type { Executor } from '#server/platform/db/database.ts';
import { validationDays } from '#server/platform/db/schema.ts';

/** Answers counted for one UTC day (`YYYY-MM-DD`) and validation code. */
export interface ValidationDayCount {
  day: string;
  code: string;
  answers: number;
}

/**
 * Adds an instance's counts to the days' totals in one statement (decision 244): instances add
 * to the same rows, never overwrite them.
 */
export async function addValidationCounts(
  db: Executor,
  counts: readonly ValidationDayCount[],
): Promise<void> {
  if (counts.length === 0) return;
  await db
    .insert(validationDays)
    .values(counts.map(({ day, code, answers }) => ({ day, code, answers })))
    .onConflictDoUpdate({
      target: [validationDays.day, validationDays.code],
      set: { answers: sql`${validationDays.answers} + excluded.answers` },
    });
}

/** The counts of the days in [from, to) (`YYYY-MM-DD`), by day and code. */
export async function validationCountsBetween(
  db: Executor,
  from: string,
  to: string,
): Promise<ValidationDayCount[]> {
  return db
    .select({ day: validationDays.day, code: validationDays.code, answers: validationDays.answers })
    .from(validationDays)
    .where(and(gte(validationDays.day, from), lt(validationDays.day, to)))
    .orderBy(asc(validationDays.day), asc(validationDays.code));
}
