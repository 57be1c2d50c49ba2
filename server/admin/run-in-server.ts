import { userInfo } from 'node:os';
import { createConnection, type Socket } from 'node:net';
import path from 'node:path';
import {
  AdminError,
  EXIT_FAILURE,
  type AdminFiles,
  type AdminIo,
} from '../platform/commands/command.ts';
import { adminSocketPath } from '../platform/data-dir/admin-socket-path.ts';
import { localFiles } from '../platform/commands/local-files.ts';
import {
  ADMIN_FILE_MAX_BYTES,
  adminServerMessageSchema,
  replyMaxBytes,
  type AdminClientReply,
  type AdminServerMessage,
} from './admin-socket-protocol.ts';

/**
 * Nothing listens there: no server runs on this data directory (or it is stopping), or the path
 * is too long for a socket (EINVAL), so no server could listen there either.
 */
const NO_SERVER = new Set(['ENOENT', 'ECONNREFUSED', 'ENOTSOCK', 'EINVAL']);
const MAX_LINE_BYTES = replyMaxBytes(ADMIN_FILE_MAX_BYTES);

/** Connects to the server's admin socket; undefined when no server listens there. */
function connect(dataDir: string): Promise<Socket | undefined> {
  const socketPath = adminSocketPath(dataDir);
  return new Promise((resolve, reject) => {
    const socket = createConnection(socketPath);
    const onError = (error: NodeJS.ErrnoException) => {
      if (error.code !== undefined && NO_SERVER.has(error.code)) {
        resolve(undefined);
        return;
      }
      reject(
        new AdminError(
          `The server's socket ${socketPath} cannot be used (${error.code ?? error.message}): run the command as the user the server runs as.`,
        ),
      );
    };
    socket.once('error', onError);
    socket.once('connect', () => {
      socket.off('error', onError);
      resolve(socket);
    });
  });
}

/** Whether a server runs on the embedded database in `dataDir` (its admin socket answers). */
export async function serverRunsOn(dataDir: string): Promise<boolean> {
  const socket = await connect(dataDir);
  socket?.destroy();
  return socket !== undefined;
}

/**
 * The files the operator named on the command line, as the command resolves them: the server
 * may read or write only these, whatever it asks for.
 */
export function namedFiles(argv: readonly string[], cwd: string): Set<string> {
  const named = new Set<string>();
  for (const arg of argv) {
    named.add(path.resolve(cwd, arg));
    const equals = arg.indexOf('=');
    if (arg.startsWith('--') && equals > 0) named.add(path.resolve(cwd, arg.slice(equals + 1)));
  }
  return named;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The CLI's side of one file request, as this user, only for a file the operator named. */
async function answerFileRequest(
  message: Extract<AdminServerMessage, { type: 'read' | 'write' }>,
  named: Set<string>,
  files: AdminFiles,
): Promise<AdminClientReply> {
  const unnamed = !named.has(message.path)
    ? `The server asked for ${message.path}, which the command line does not name; refused.`
    : undefined;
  if (message.type === 'write') {
    if (unnamed) return { type: 'written', id: message.id, error: unnamed };
    try {
      await files.write(message.path, Buffer.from(message.data, 'base64'));
      return { type: 'written', id: message.id };
    } catch (error) {
      return { type: 'written', id: message.id, error: messageOf(error).slice(0, 2048) };
    }
  }
  if (unnamed) {
    return { type: 'read', id: message.id, reading: { reason: 'unreadable', message: unnamed } };
  }
  const reading = await files.read(message.path, message.maxBytes);
  if (reading.ok) {
    return {
      type: 'read',
      id: message.id,
      reading: { reason: 'ok', data: reading.bytes.toString('base64') },
    };
  }
  return {
    type: 'read',
    id: message.id,
    reading:
      reading.reason === 'unreadable'
        ? { reason: 'unreadable', message: reading.message.slice(0, 2048) }
        : reading.reason === 'too-large'
          ? { reason: 'too-large', size: reading.size }
          : { reason: 'not-a-file' },
  };
}

/**
 * Runs the command in the server that has the embedded database in `dataDir` open, through its
 * admin socket (decision 189): its output is printed here as it comes, its files are read and
 * written here. Resolves with its exit code, or undefined when no server listens there.
 */
export async function runInServer(options: {
  dataDir: string;
  argv: readonly string[];
  cwd: string;
  io: AdminIo;
  files?: AdminFiles;
}): Promise<number | undefined> {
  const socket = await connect(options.dataDir);
  if (!socket) return undefined;
  const files = options.files ?? localFiles;
  const cwd = path.resolve(options.cwd);
  const named = namedFiles(options.argv, cwd);
  return new Promise<number>((resolve) => {
    let exitCode: number | undefined;
    let broken: string | undefined;
    let received = Buffer.alloc(0);
    let heard = false;
    /** File requests are answered in the order they came, one after another. */
    let answering = Promise.resolve();
    const breakOff = (why: string) => {
      broken ??= why;
      socket.destroy();
    };
    const handle = (message: AdminServerMessage) => {
      switch (message.type) {
        case 'out':
          options.io.out(message.line);
          return;
        case 'err':
          options.io.err(message.line);
          return;
        case 'exit':
          exitCode = message.code;
          return;
        case 'read':
        case 'write':
          answering = answering.then(async () => {
            const reply = await answerFileRequest(message, named, files);
            if (!socket.destroyed) socket.write(`${JSON.stringify(reply)}\n`);
          });
      }
    };
    socket.on('data', (chunk: Buffer) => {
      heard = true;
      received = Buffer.concat([received, chunk]);
      for (;;) {
        const end = received.indexOf(0x0a);
        if (end < 0) break;
        const parsed = adminServerMessageSchema.safeParse(
          parseJson(received.subarray(0, end).toString('utf8')),
        );
        received = received.subarray(end + 1);
        if (!parsed.success || exitCode !== undefined) {
          breakOff('The server answered something that is not an admin command answer.');
          return;
        }
        handle(parsed.data);
      }
      if (received.length > MAX_LINE_BYTES) breakOff('The server sent a line far too long.');
    });
    socket.on('error', (error) => breakOff(error.message));
    socket.on('close', () => {
      if (exitCode !== undefined && broken === undefined) {
        resolve(exitCode);
        return;
      }
      options.io.err(
        broken ??
          (heard
            ? 'The server closed the connection before the command finished; it may have done part of it.'
            : 'The server closed the connection without running the command (it is stopping, or runs 4 admin commands at once); nothing was done: run it again.'),
      );
      resolve(EXIT_FAILURE);
    });
    socket.write(`${JSON.stringify({ argv: options.argv, cwd, user: cliUser() })}\n`);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The operator's user name, sent with the command so the server audits it as theirs. */
function cliUser(): string {
  let name: string;
  try {
    name = process.env.SUDO_USER ?? userInfo().username;
  } catch {
    name = '';
  }
  // The socket takes a plain name only (adminRunRequestSchema).
  return name.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 64) || 'unknown';
}
