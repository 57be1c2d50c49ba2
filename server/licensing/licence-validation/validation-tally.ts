import type { Database } from '#server/platform/db/database.ts';
import type { Job } from '#server/platform/jobs/job.ts';
import type { Logger } from '#server/platform/logger.ts';
import type { ValidationCode } from '../licences/check-licence.ts';
import { addValidationCounts, type ValidationDayCount } from './validation-days-repository.ts';

/** How often an instance adds its validation counts to the database (decision 244). */
export const VALIDATION_TALLY_FLUSH_MS = 60_000;

/**
 * Validations counted in memory by UTC day and code (decision 244): the hot path adds one to a
 * map entry and writes nothing; {@link validationTallyJob} adds the counts to `validation_days`
 * once a minute. A count whose write fails is kept for the next one.
 */
export function createValidationTally(clock: () => Date) {
  let counts = new Map<string, number>();
  // The hot path formats a day once per day, not once per validation.
  let today = { index: Number.NaN, text: '' };
  const dayOf = (at: Date) => {
    const index = Math.floor(at.getTime() / 86_400_000);
    if (index !== today.index) today = { index, text: at.toISOString().slice(0, 10) };
    return today.text;
  };
  const keyOf = (day: string, code: string) => `${day} ${code}`;
  const add = (key: string, answers: number) => counts.set(key, (counts.get(key) ?? 0) + answers);
  return {
    /** Counts one validation answer on today's (UTC) day. */
    count(code: ValidationCode): void {
      add(keyOf(dayOf(clock()), code), 1);
    },
    /** Takes the counts so far, leaving none. */
    take(): ValidationDayCount[] {
      const taken = counts;
      counts = new Map();
      return [...taken].map(([key, answers]) => {
        const [day = '', code = ''] = key.split(' ');
        return { day, code, answers };
      });
    },
    /** Puts back counts whose write failed: they go with the next. */
    putBack(taken: readonly ValidationDayCount[]): void {
      for (const { day, code, answers } of taken) add(keyOf(day, code), answers);
    },
    /** Counts not yet written (tests, logs). */
    pending(): number {
      let total = 0;
      for (const answers of counts.values()) total += answers;
      return total;
    },
  };
}

export type ValidationTally = ReturnType<typeof createValidationTally>;

/** Writes what was taken, or puts it back when the database does not take it. */
async function flush(db: Database, tally: ValidationTally): Promise<number> {
  const taken = tally.take();
  try {
    await addValidationCounts(db, taken);
  } catch (error) {
    tally.putBack(taken);
    throw error;
  }
  return taken.length;
}

/**
 * Every instance adds its counts once a minute and once more when it stops (decision 244). A
 * process killed outright loses at most its last minute's counts: they are a dashboard's figure,
 * not money or a licence.
 */
export function validationTallyJob(
  db: Database,
  tally: ValidationTally,
  logger: Logger,
  everyMs = VALIDATION_TALLY_FLUSH_MS,
): Job {
  return {
    name: 'validation-tally',
    scope: 'instance',
    everyMs,
    firstAfterMs: everyMs,
    run: () => flush(db, tally),
    async onStop() {
      await flush(db, tally).catch((error: unknown) =>
        logger.warn(
          { err: error, unwritten: tally.pending() },
          'could not add the last validation counts',
        ),
      );
    },
  };
}
