import type { Logger } from '../platform/logger.ts';
import { backupRequestSchema, type BackupAnswer } from './backup-socket-protocol.ts';
import { BackupRefused } from './check-backup-path.ts';
import type { BackupTaker } from './take-backup.ts';

function parseRequest(json: unknown) {
  const request = backupRequestSchema.safeParse(json);
  if (!request.success) {
    return { error: 'The request is not {"command":"backup","file":"<absolute path>"}.' };
  }
  return { file: request.data.file };
}

/**
 * A backup request that came through the admin socket (decision 130): the taker writes the file
 * inside the server, which alone may open the embedded database, in its queue.
 */
export async function answerBackupRequest(
  json: unknown,
  taker: BackupTaker,
  logger: Logger,
): Promise<BackupAnswer> {
  const request = parseRequest(json);
  if (request.file === undefined) {
    logger.warn({ reason: request.error }, 'backup request refused');
    return { ok: false, error: request.error };
  }
  try {
    const taken = await taker.take(request.file);
    logger.info(
      { file: taken.file, rows: taken.rows, size: taken.size, ms: Math.round(taken.ms) },
      'online backup written',
    );
    const { file, tables, rows, bytes, size, ms } = taken;
    return { ok: true, file, tables, rows, bytes, size, ms };
  } catch (error) {
    const refused = error instanceof BackupRefused;
    const message = error instanceof Error ? error.message : String(error);
    if (refused) logger.warn({ reason: message }, 'backup request refused');
    else logger.error({ err: error }, 'online backup failed');
    return { ok: false, error: refused ? message : `The backup failed: ${message}` };
  }
}
