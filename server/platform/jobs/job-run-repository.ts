import { and, eq, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.ts';
import { jobRuns } from '../db/schema.ts';

/** Cluster jobs' claims (decision 174): one statement each, so two instances never both win. */
export function createJobRunRepository(db: Executor) {
  return {
    /** Makes the job's row, due at `dueAt`, unless it exists. */
    async register(name: string, dueAt: Date): Promise<void> {
      await db.insert(jobRuns).values({ name, nextRunAt: dueAt }).onConflictDoNothing();
    },

    /**
     * Claims the job for `owner` until `leasedUntil` if it is due at `now` and nobody holds a live
     * lease on it. Returns whether this call won.
     */
    async claim(name: string, owner: string, now: Date, leasedUntil: Date): Promise<boolean> {
      const won = await db
        .update(jobRuns)
        .set({ claimedBy: owner, leasedUntil, lastStartedAt: now })
        .where(
          and(
            eq(jobRuns.name, name),
            lte(jobRuns.nextRunAt, now),
            or(isNull(jobRuns.leasedUntil), lt(jobRuns.leasedUntil, now)),
          ),
        )
        .returning({ name: jobRuns.name });
      return won.length > 0;
    },

    /** Extends a lease this owner still holds; false when it was lost (it lapsed and was taken). */
    async extend(name: string, owner: string, leasedUntil: Date): Promise<boolean> {
      const kept = await db
        .update(jobRuns)
        .set({ leasedUntil })
        .where(and(eq(jobRuns.name, name), eq(jobRuns.claimedBy, owner)))
        .returning({ name: jobRuns.name });
      return kept.length > 0;
    },

    /** Records a finished run and when the job is next due; gives the lease back. */
    async finish(
      name: string,
      owner: string,
      run: {
        finishedAt: Date;
        durationMs: number;
        rows: number;
        error: string | null;
        nextRunAt: Date;
      },
    ): Promise<void> {
      await db
        .update(jobRuns)
        .set({
          claimedBy: null,
          leasedUntil: null,
          nextRunAt: run.nextRunAt,
          lastFinishedAt: run.finishedAt,
          lastDurationMs: run.durationMs,
          lastRows: run.rows,
          lastError: run.error,
        })
        .where(and(eq(jobRuns.name, name), eq(jobRuns.claimedBy, owner)));
    },

    /** Gives every lease back: on the embedded database, whoever held one was this process before a crash. */
    async releaseAll(): Promise<number> {
      const rows = await db
        .update(jobRuns)
        .set({ claimedBy: null, leasedUntil: null })
        .where(isNotNull(jobRuns.leasedUntil))
        .returning({ name: jobRuns.name });
      return rows.length;
    },

    /** Every job's row, for `/metrics` and the admin CLI. */
    list() {
      return db.select().from(jobRuns).orderBy(jobRuns.name);
    },

    /** Makes a job due now (an operator's "run it again"). */
    async dueNow(name: string): Promise<boolean> {
      const rows = await db
        .update(jobRuns)
        .set({ nextRunAt: sql`now()` })
        .where(eq(jobRuns.name, name))
        .returning({ name: jobRuns.name });
      return rows.length > 0;
    },
  };
}

export type JobRunRepository = ReturnType<typeof createJobRunRepository>;
