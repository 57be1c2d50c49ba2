import { chmod, lstat, mkdir, rm } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import path from 'node:path';
import type { Logger } from '../platform/logger.ts';
import {
  BACKUP_REQUEST_MAX_BYTES,
  BACKUP_REQUEST_TIMEOUT_MS,
  backupRequestSchema,
  backupSocketPath,
  type BackupAnswer,
} from './backup-socket-protocol.ts';
import { BackupRefused } from './check-backup-path.ts';
import type { BackupTaker } from './take-backup.ts';

/** Backups wait in the taker's queue; more callers than this at once are turned away. */
const MAX_CONNECTIONS = 4;

function answer(socket: Socket, value: BackupAnswer): void {
  if (!socket.destroyed) socket.end(`${JSON.stringify(value)}\n`);
}

function parseRequest(line: string) {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return { error: 'The request is not JSON.' };
  }
  const request = backupRequestSchema.safeParse(json);
  if (!request.success) {
    return { error: 'The request is not {"command":"backup","file":"<absolute path>"}.' };
  }
  return { file: request.data.file };
}

/**
 * The directory of the socket: ours alone (0700), so nobody else can reach the socket even in the
 * moment between its creation and its chmod.
 */
async function privateDirectory(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const info = await lstat(dir);
  if (!info.isDirectory() || (process.getuid && info.uid !== process.getuid())) {
    throw new Error(`${dir} must be a directory owned by the server's user`);
  }
  await chmod(dir, 0o700);
}

/**
 * Listens on `$DATA_DIR/run/backup.sock` (mode 0600 in a 0700 directory: only the server's user
 * and root can connect; never on a network port) for the admin command's backup requests, and
 * writes each backup with the taker inside the server, which alone may open the embedded
 * database (decision 130). Returns the stopper: no new requests, running backups finish.
 */
export function startBackupSocket(options: {
  dataDir: string;
  taker: BackupTaker;
  logger: Logger;
}): { ready: Promise<boolean>; stop(): Promise<void> } {
  const { taker } = options;
  const logger = options.logger.child({ worker: 'backup-socket' });
  const socketPath = backupSocketPath(options.dataDir);
  /** Connections that have not sent their request yet: closed at once when the server stops. */
  const waiting = new Set<Socket>();

  const serve = (socket: Socket) => {
    waiting.add(socket);
    socket.on('close', () => waiting.delete(socket));
    socket.on('error', () => undefined);
    socket.setTimeout(BACKUP_REQUEST_TIMEOUT_MS, () =>
      answer(socket, { ok: false, error: 'No request arrived in time.' }),
    );
    let received = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf(0x0a);
      if (end < 0 && received.length <= BACKUP_REQUEST_MAX_BYTES) return;
      socket.off('data', onData);
      socket.setTimeout(0);
      waiting.delete(socket);
      if (end < 0 || end > BACKUP_REQUEST_MAX_BYTES) {
        answer(socket, { ok: false, error: 'The request is too long.' });
        return;
      }
      const request = parseRequest(received.subarray(0, end).toString('utf8'));
      if (request.file === undefined) {
        logger.warn({ reason: request.error }, 'backup request refused');
        answer(socket, { ok: false, error: request.error });
        return;
      }
      void taker.take(request.file).then(
        (taken) => {
          logger.info(
            { file: taken.file, rows: taken.rows, size: taken.size, ms: Math.round(taken.ms) },
            'online backup written',
          );
          const { file, tables, rows, bytes, size, ms } = taken;
          answer(socket, { ok: true, file, tables, rows, bytes, size, ms });
        },
        (error: unknown) => {
          const refused = error instanceof BackupRefused;
          const message = error instanceof Error ? error.message : String(error);
          if (refused) logger.warn({ reason: message }, 'backup request refused');
          else logger.error({ err: error }, 'online backup failed');
          answer(socket, { ok: false, error: refused ? message : `The backup failed: ${message}` });
        },
      );
    };
    socket.on('data', onData);
  };

  const server = createServer(serve);
  server.maxConnections = MAX_CONNECTIONS;
  const ready = (async () => {
    await privateDirectory(path.dirname(socketPath));
    // A socket left by a process that died: the data-dir lock says no other server runs here.
    await rm(socketPath, { force: true });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => {
        server.off('error', reject);
        resolve();
      });
    });
    await chmod(socketPath, 0o600);
    logger.info({ socket: socketPath }, 'online backups: listening on the local socket');
    return true;
  })().catch((error: unknown) => {
    logger.error(
      { err: error, socket: socketPath },
      'online backups unavailable: the local socket could not be opened',
    );
    return false;
  });

  return {
    ready,
    async stop() {
      const listening = await ready;
      // No new connections; those with a backup under way get its answer, then close.
      const closed = listening
        ? new Promise<void>((resolve) => server.close(() => resolve()))
        : Promise.resolve();
      for (const socket of waiting) socket.destroy();
      await taker.idle();
      await closed;
      if (listening) await rm(socketPath, { force: true });
    },
  };
}
