import { createConnection } from 'node:net';
import { adminSocketPath } from '../platform/data-dir/admin-socket-path.ts';
import { backupAnswerSchema, type BackupAnswer } from './backup-socket-protocol.ts';

/**
 * Nothing listens there: no server runs on this data directory (or it is stopping), or the path
 * is too long for a socket (EINVAL), so no server could listen there either.
 */
const NO_SERVER = new Set(['ENOENT', 'ECONNREFUSED', 'ENOTSOCK', 'EINVAL']);
/** An answer is one short line; a longer one is not our server's. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** The socket exists but may not be used: another user's server, or a path too long for a socket. */
export class ServerSocketUnusable extends Error {
  override name = 'ServerSocketUnusable';
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Asks the server running on the embedded database in `dataDir` to write a backup to `file`
 * (absolute) through its admin socket (decisions 130 and 189). Resolves with its answer, or undefined when
 * no server listens there, so the caller may open the database itself.
 */
export function requestServerBackup(
  dataDir: string,
  file: string,
): Promise<BackupAnswer | undefined> {
  const socketPath = adminSocketPath(dataDir);
  return new Promise((resolve, reject) => {
    const socket = createConnection(socketPath);
    let connected = false;
    let received = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => {
      connected = true;
      socket.write(`${JSON.stringify({ command: 'backup', file })}\n`);
    });
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (received.length > MAX_ANSWER_BYTES) socket.destroy(new Error('answer too long'));
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (!connected && error.code !== undefined && NO_SERVER.has(error.code)) {
        resolve(undefined);
        return;
      }
      if (!connected) {
        reject(
          new ServerSocketUnusable(
            `The server's socket ${socketPath} cannot be used (${error.code ?? error.message}): run the command as the user the server runs as.`,
          ),
        );
        return;
      }
      reject(new Error(`The server closed the connection before answering (${error.message}).`));
    });
    socket.on('end', () => {
      const answer = backupAnswerSchema.safeParse(parseJson(received.trim()));
      if (answer.success) resolve(answer.data);
      else reject(new Error('The server answered something that is not a backup answer.'));
    });
  });
}
