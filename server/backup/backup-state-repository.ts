import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../platform/db/database.ts';
import { appState } from '../platform/db/schema.ts';

/** When the newest backup's snapshot was taken, by any instance or command (for /readyz). */
const NEWEST = 'backup_newest_at';
/** When the newest scheduled backup was claimed: the instance that moves it takes that backup. */
const SCHEDULED = 'backup_scheduled_at';

const isoTime = z.iso.datetime().transform((text) => new Date(text));

/** Backups' shared state, kept in `app_state` so every instance on one database agrees. */
export function createBackupStateRepository(db: Executor) {
  const read = async (key: string): Promise<Date | undefined> => {
    const [row] = await db.select().from(appState).where(eq(appState.key, key));
    const parsed = isoTime.safeParse(row?.value);
    return parsed.success ? parsed.data : undefined;
  };
  return {
    newestAt: () => read(NEWEST),
    scheduledAt: () => read(SCHEDULED),

    /** Records a backup taken at `at`; an older one finishing later does not move it back. */
    async recordNewest(at: Date): Promise<void> {
      await db
        .insert(appState)
        .values({ key: NEWEST, value: at.toISOString() })
        .onConflictDoUpdate({
          target: appState.key,
          set: { value: at.toISOString(), updatedAt: sql`now()` },
          setWhere: sql`${appState.value}::timestamptz < ${at.toISOString()}::timestamptz`,
        });
    },

    /**
     * Claims the scheduled backup due at `now` unless one was claimed after `dueBefore`. One
     * statement: on PostgreSQL a second instance's upsert waits for the first and then finds the
     * claim taken, so one instance takes each scheduled backup.
     */
    async claimScheduled(now: Date, dueBefore: Date): Promise<boolean> {
      const claimed = await db
        .insert(appState)
        .values({ key: SCHEDULED, value: now.toISOString() })
        .onConflictDoUpdate({
          target: appState.key,
          set: { value: now.toISOString(), updatedAt: sql`now()` },
          setWhere: sql`${appState.value}::timestamptz <= ${dueBefore.toISOString()}::timestamptz`,
        })
        .returning({ key: appState.key });
      return claimed.length > 0;
    },

    /** Gives a failed claim back (to `previous`), so the next attempt, anywhere, may take it. */
    async releaseClaim(claimed: Date, previous: Date | undefined): Promise<void> {
      const mine = and(eq(appState.key, SCHEDULED), eq(appState.value, claimed.toISOString()));
      if (previous) {
        await db
          .update(appState)
          .set({ value: previous.toISOString(), updatedAt: sql`now()` })
          .where(mine);
      } else {
        await db.delete(appState).where(mine);
      }
    },
  };
}
