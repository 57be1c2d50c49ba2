import { eq } from 'drizzle-orm';
import type { Database } from './db/database.ts';
import { appState } from './db/schema.ts';

/** Named values the instances share through the database (generated secrets). */
export function createAppStateRepository(db: Database) {
  return {
    /** Stores `value` under `key` unless a value is there already. */
    async insertIfMissing(key: string, value: string): Promise<void> {
      await db.insert(appState).values({ key, value }).onConflictDoNothing();
    },
    async find(key: string): Promise<string | undefined> {
      const [row] = await db.select().from(appState).where(eq(appState.key, key));
      return row?.value;
    },
  };
}
