import { randomBytes } from 'node:crypto';
import { createAppStateRepository } from './app-state-repository.ts';
import type { Database } from './db/database.ts';

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
  const state = createAppStateRepository(db);
  await state.insertIfMissing(name, generate());
  const value = await state.find(name);
  if (value === undefined) throw new Error(`Secret ${name} could not be stored`);
  return value;
}
