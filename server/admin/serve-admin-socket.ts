import { chmod, lstat, mkdir, rm } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import path from 'node:path';
import { answerBackupRequest } from '../backup/answer-backup-request.ts';
import type { BackupAnswer } from '../backup/backup-socket-protocol.ts';
import type { BackupTaker } from '../backup/take-backup.ts';
import type { AdminFiles, AdminIo, FileReading } from '../platform/commands/command.ts';
import { adminSocketPath } from '../platform/data-dir/admin-socket-path.ts';
import type { Logger } from '../platform/logger.ts';
import {
  ADMIN_FILE_MAX_BYTES,
  ADMIN_REPLY_TIMEOUT_MS,
  ADMIN_REQUEST_MAX_BYTES,
  ADMIN_REQUEST_TIMEOUT_MS,
  adminClientReplySchema,
  adminRunRequestSchema,
  replyMaxBytes,
  type AdminClientReply,
  type AdminRunRequest,
  type AdminServerMessage,
} from './admin-socket-protocol.ts';

/** Commands and backups run in this process; more callers than this at once are turned away. */
const MAX_CONNECTIONS = 4;

/** Runs one admin command in this process, with the CLI's output and files; the exit code. */
export type AdminCommandRunner = (
  request: AdminRunRequest,
  io: AdminIo,
  files: AdminFiles,
) => Promise<{ code: number; command: string | undefined }>;

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

const isRunRequest = (json: unknown) => typeof json === 'object' && json !== null && 'argv' in json;

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
 * One command run for the CLI on `socket`: its output lines go back as they come, its files are
 * read and written by the CLI (never here, at a path a caller chose), then the exit code.
 */
async function serveCommand(
  socket: Socket,
  request: AdminRunRequest,
  rest: Buffer,
  runner: AdminCommandRunner,
  logger: Logger,
): Promise<void> {
  const send = (message: AdminServerMessage) => {
    if (!socket.destroyed) socket.write(`${JSON.stringify(message)}\n`);
  };
  let nextId = 0;
  /** The one file request waiting for the CLI's reply (commands await each in turn). */
  let pending:
    { id: number; maxLine: number; settle: (reply: AdminClientReply | Error) => void } | undefined;
  let received = rest;
  const fail = (error: Error) => {
    const waiting = pending;
    pending = undefined;
    socket.setTimeout(0);
    waiting?.settle(error);
  };
  socket.on('close', () => fail(new Error('The admin command line went away.')));
  socket.on('timeout', () => {
    fail(new Error('The admin command line did not answer in time.'));
    socket.destroy();
  });
  const onData = (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]);
    const end = received.indexOf(0x0a);
    // The CLI speaks only when asked, one line per request, no longer than its file needs.
    if (!pending || (end < 0 ? received.length : end) > pending.maxLine) {
      fail(new Error('The admin command line sent something it was not asked for.'));
      socket.destroy();
      return;
    }
    if (end < 0) return;
    const reply = adminClientReplySchema.safeParse(
      parseJson(received.subarray(0, end).toString('utf8')),
    );
    received = received.subarray(end + 1);
    if (!reply.success || reply.data.id !== pending.id || received.length > 0) {
      fail(new Error('The admin command line answered something else than was asked.'));
      socket.destroy();
      return;
    }
    const { settle } = pending;
    pending = undefined;
    socket.setTimeout(0);
    settle(reply.data);
  };
  socket.on('data', onData);
  if (received.length > 0) onData(Buffer.alloc(0));

  const ask = (message: AdminServerMessage & { id: number }, maxLine: number) =>
    new Promise<AdminClientReply>((resolve, reject) => {
      if (socket.destroyed) {
        reject(new Error('The admin command line went away.'));
        return;
      }
      pending = {
        id: message.id,
        maxLine,
        settle: (reply) => (reply instanceof Error ? reject(reply) : resolve(reply)),
      };
      socket.setTimeout(ADMIN_REPLY_TIMEOUT_MS);
      send(message);
    });

  const files: AdminFiles = {
    async read(file, maxBytes): Promise<FileReading> {
      const limit = Math.min(maxBytes, ADMIN_FILE_MAX_BYTES);
      const id = nextId++;
      const reply = await ask(
        { type: 'read', id, path: file, maxBytes: limit },
        replyMaxBytes(limit),
      );
      if (reply.type !== 'read') throw new Error('The admin command line did not send the file.');
      const { reading } = reply;
      switch (reading.reason) {
        case 'not-a-file':
          return { ok: false, reason: 'not-a-file' };
        case 'too-large':
          return { ok: false, reason: 'too-large', size: reading.size };
        case 'unreadable':
          return { ok: false, reason: 'unreadable', message: reading.message };
        case 'ok': {
          const bytes = Buffer.from(reading.data, 'base64');
          if (bytes.length > limit) return { ok: false, reason: 'too-large', size: bytes.length };
          return { ok: true, bytes };
        }
      }
    },
    async write(file, bytes) {
      if (bytes.length > ADMIN_FILE_MAX_BYTES) {
        throw new Error(`${file} would be larger than the admin socket carries.`);
      }
      const id = nextId++;
      const data = Buffer.from(bytes).toString('base64');
      const reply = await ask({ type: 'write', id, path: file, data }, ADMIN_REQUEST_MAX_BYTES);
      if (reply.type !== 'written')
        throw new Error('The admin command line did not write the file.');
      if (reply.error !== undefined) throw new Error(reply.error);
    },
  };
  const io: AdminIo = {
    out: (line) => send({ type: 'out', line }),
    err: (line) => send({ type: 'err', line }),
  };
  const started = performance.now();
  const { code, command } = await runner(request, io, files).catch((error: unknown) => {
    logger.error({ err: error }, 'admin command failed');
    io.err(`Error: ${error instanceof Error ? error.message : String(error)}`);
    return { code: 1, command: undefined };
  });
  // The command's name, never its arguments: they may be customers' addresses.
  logger.info({ command, code, ms: Math.round(performance.now() - started) }, 'admin command run');
  socket.off('data', onData);
  if (!socket.destroyed) socket.end(`${JSON.stringify({ type: 'exit', code })}\n`);
}

/**
 * Listens on `$DATA_DIR/run/admin.sock` (mode 0600 in a 0700 directory: only the server's user
 * and root can connect; never on a network port) for the admin CLI: backups written by the taker
 * (decision 130) and every other admin command run here, on the database only this process may
 * open (decision 189). Returns the stopper: no new requests, running ones finish.
 */
export function startAdminSocket(options: {
  dataDir: string;
  taker: BackupTaker;
  logger: Logger;
  /** Absent, only backups are served. */
  runCommand?: AdminCommandRunner;
}): { ready: Promise<boolean>; stop(): Promise<void> } {
  const { taker, runCommand } = options;
  const logger = options.logger.child({ worker: 'admin-socket' });
  const socketPath = adminSocketPath(options.dataDir);
  /** Connections that have not sent their request yet: closed at once when the server stops. */
  const waiting = new Set<Socket>();
  const running = new Set<Promise<void>>();

  const track = (work: Promise<void>) => {
    running.add(work);
    void work.finally(() => running.delete(work));
  };
  const answerBackup = (socket: Socket, value: BackupAnswer) => {
    if (!socket.destroyed) socket.end(`${JSON.stringify(value)}\n`);
  };
  const refuseRun = (socket: Socket, line: string) => {
    if (socket.destroyed) return;
    socket.write(`${JSON.stringify({ type: 'err', line })}\n`);
    socket.end(`${JSON.stringify({ type: 'exit', code: 2 })}\n`);
  };

  const serve = (socket: Socket) => {
    waiting.add(socket);
    socket.on('close', () => waiting.delete(socket));
    socket.on('error', () => undefined);
    const tooLate = () => answerBackup(socket, { ok: false, error: 'No request arrived in time.' });
    socket.setTimeout(ADMIN_REQUEST_TIMEOUT_MS);
    socket.once('timeout', tooLate);
    let received = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf(0x0a);
      if (end < 0 && received.length <= ADMIN_REQUEST_MAX_BYTES) return;
      socket.off('data', onData);
      socket.off('timeout', tooLate);
      socket.setTimeout(0);
      waiting.delete(socket);
      if (end < 0 || end > ADMIN_REQUEST_MAX_BYTES) {
        answerBackup(socket, { ok: false, error: 'The request is too long.' });
        return;
      }
      const json = parseJson(received.subarray(0, end).toString('utf8'));
      const rest = received.subarray(end + 1);
      if (json === undefined) {
        answerBackup(socket, { ok: false, error: 'The request is not JSON.' });
        return;
      }
      if (!isRunRequest(json)) {
        track(answerBackupRequest(json, taker, logger).then((a) => answerBackup(socket, a)));
        return;
      }
      const request = adminRunRequestSchema.safeParse(json);
      if (!request.success || !runCommand) {
        logger.warn('admin command request refused');
        refuseRun(
          socket,
          runCommand
            ? 'The request is not {"argv":["<command>",...],"cwd":"<absolute path>"}.'
            : 'This server runs no admin commands.',
        );
        return;
      }
      track(serveCommand(socket, request.data, rest, runCommand, logger));
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
    logger.info({ socket: socketPath }, 'admin commands and online backups: listening');
    return true;
  })().catch((error: unknown) => {
    logger.error(
      { err: error, socket: socketPath },
      'admin commands and online backups unavailable: the local socket could not be opened',
    );
    return false;
  });

  return {
    ready,
    async stop() {
      const listening = await ready;
      // No new connections; those with a command or backup under way get its answer, then close.
      const closed = listening
        ? new Promise<void>((resolve) => server.close(() => resolve()))
        : Promise.resolve();
      for (const socket of waiting) socket.destroy();
      await Promise.all(running);
      await taker.idle();
      await closed;
      if (listening) await rm(socketPath, { force: true });
    },
  };
}
