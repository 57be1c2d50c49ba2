import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from './db/client.ts';
import { appState } from './db/schema.ts';

/**
 * Returns the configured secret, or one generated on first start and kept in the database so that
 * every instance on the same database agrees on it.
 */
export async function loadOrCreateSecret(
  db: Database,
  name: string,
  configured: string | undefined,
  generate: () => string = () => randomBytes(32).toString('base64url'),
): Promise<string> {
  if (configured) return configured;
  await db.insert(appState).values({ key: name, value: generate() }).onConflictDoNothing();
  const [row] = await db.select().from(appState).where(eq(appState.key, name));
  if (!row) throw new Error(`Secret ${name} could not be stored`);
  return row.value;
}
