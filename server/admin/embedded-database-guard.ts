import { z } from 'zod';
import type { Env } from '../env.ts';
import { AdminError } from '../platform/commands/command.ts';

const healthSchema = z.object({ status: z.literal('ok'), database: z.string() });

/**
 * PGlite serves one process per data directory, and a second opener corrupts it. Before opening
 * the embedded database, ask whether a server with this environment's PORT is up on it: one
 * whose admin socket did not answer (decision 189), e.g. a server of an older version.
 */
export async function assertEmbeddedDatabaseFree(env: Env, timeoutMs = 1500): Promise<void> {
  let body: unknown;
  try {
    const response = await fetch(`http://127.0.0.1:${env.PORT}/healthz`, {
      signal: AbortSignal.timeout(timeoutMs),
    });
    body = await response.json();
  } catch {
    return; // Nothing listening (or not our server): the data directory is free.
  }
  const health = healthSchema.safeParse(body);
  if (health.success && health.data.database === 'pglite') {
    throw new AdminError(
      [
        `A server on port ${env.PORT} is running on the embedded database, and the embedded`,
        'database allows only one process at a time: opening it here too would corrupt it.',
        `Its admin socket in DATA_DIR=${env.DATA_DIR} did not answer: if that server uses this`,
        'DATA_DIR, restart it (its version may predate the socket), or stop it, then run this',
        'command again.',
      ].join('\n'),
    );
  }
}
