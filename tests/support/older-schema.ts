import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '#server/platform/db/client.ts';
import { migrate, migrationFiles } from '#server/platform/db/migrate.ts';
import type { TestDatabaseTarget } from './databases.ts';

/** The migrations that sort before `firstMissing`: the schema of an older release. */
export async function migrationsBefore(firstMissing: string): Promise<string[]> {
  return (await migrationFiles()).filter((name) => name < firstMissing);
}

/**
 * A fresh database of `target` as an older release left it: migrated only up to the migration
 * before `firstMissing`, so data migrations from then on have not run over its rows.
 */
export async function openOlderDatabase(
  target: TestDatabaseTarget,
  firstMissing: string,
): Promise<DatabaseHandle> {
  const handle = await target.open();
  await handle.db.execute(sql`drop schema public cascade`);
  await handle.db.execute(sql`create schema public`);
  await migrate(handle.db, { only: new Set(await migrationsBefore(firstMissing)) });
  return handle;
}
