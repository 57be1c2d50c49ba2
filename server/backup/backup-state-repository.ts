import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../platform/db/database.ts';
import { appState } from '../platform/db/schema.ts';

/** When the newest backup's snapshot was taken, by any instance or command (for /readyz). */
const NEWEST = 'backup_newest_at';

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
  };
}
