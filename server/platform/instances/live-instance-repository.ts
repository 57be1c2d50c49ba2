import { count, eq, gt, lt, min } from 'drizzle-orm';
import type { Database } from '../db/database.ts';
import { liveInstances } from '../db/schema.ts';

/** Rows of `live_instances` (decision 195). */
export function createLiveInstanceRepository(db: Database) {
  return {
    /** Writes or renews an instance's row. */
    async renew(id: string, startedAt: Date, seenAt: Date): Promise<void> {
      await db
        .insert(liveInstances)
        .values({ id, startedAt, seenAt })
        .onConflictDoUpdate({ target: liveInstances.id, set: { seenAt } });
    },

    /** Deletes the rows not renewed since `before`. */
    async forgetSeenBefore(before: Date): Promise<void> {
      await db.delete(liveInstances).where(lt(liveInstances.seenAt, before));
    },

    /** How many instances renewed their row after `since`. */
    async countSeenAfter(since: Date): Promise<number> {
      return (await this.liveSince(since)).live;
    },

    /**
     * How many instances renewed their row after `since`, and the first of their ids: the one
     * that reports what is the same on every instance (decision 240).
     */
    async liveSince(since: Date): Promise<{ live: number; first: string | null }> {
      const [row] = await db
        .select({ live: count(), first: min(liveInstances.id) })
        .from(liveInstances)
        .where(gt(liveInstances.seenAt, since));
      return { live: row?.live ?? 0, first: row?.first ?? null };
    },

    async remove(id: string): Promise<void> {
      await db.delete(liveInstances).where(eq(liveInstances.id, id));
    },
  };
}
