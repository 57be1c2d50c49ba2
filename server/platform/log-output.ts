import { constants, fstatSync, openSync, writeSync } from 'node:fs';
import { isatty } from 'node:tty';

/** Where log lines go: written in batches, never waited for (decision 207). */
export interface LogOutput {
  /** Queues one line; drops it, counted, when the backlog is full. */
  write(line: string): void;
  /** Writes what it can now, without waiting. */
  flush(): void;
  /** Writes the backlog, waiting for the reader at most `ms` milliseconds; drops what is left. */
  flushWithin(ms: number): void;
  /** Lines dropped since the start because the reader did not keep up (or had gone). */
  droppedLines(): number;
}

/** Errors of a write that mean "not now": the reader is slow, not gone. */
const TRY_LATER = new Set(['EAGAIN', 'EWOULDBLOCK', 'EINTR']);

function errorCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

function countLineEnds(bytes: Buffer): number {
  let count = 0;
  for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, at + 1)) count += 1;
  return count;
}

/** Sleeps the thread: only for the bounded wait at exit, when no event loop runs any more. */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Log lines gathered into one write per `batchBytes` or `flushMs` (decision 150), written to `fd`
 * without ever blocking: a write the reader cannot take now keeps the rest for a later try, and
 * past `backlogBytes` waiting new lines are dropped and counted. `fd` must be non-blocking for
 * a reader that stalls (a pipe, socket or terminal): see `nonBlockingStandardOutput`.
 */
export function createLogOutput(options: {
  fd: () => number;
  batchBytes: number;
  flushMs: number;
  backlogBytes: number;
}): LogOutput {
  // The unwritten tail of a batch the reader took part of, then whole lines not yet written.
  let tail: Buffer | undefined;
  let tailLines = 0;
  let lines: string[] = [];
  let backlog = 0;
  let dropped = 0;
  let timer: NodeJS.Timeout | undefined;
  let fd: number | undefined;

  const schedule = () => {
    // Unreferenced: a pending log line never keeps the process alive; `exit` writes it.
    timer ??= setTimeout(() => {
      timer = undefined;
      flush();
    }, options.flushMs).unref();
  };

  /** One write of the backlog; true when all of it was written. */
  function writeNow(): boolean {
    if (!tail && lines.length === 0) return true;
    const batch = Buffer.concat([tail ?? Buffer.alloc(0), Buffer.from(lines.join(''))]);
    const lineCount = tailLines + lines.length;
    tail = undefined;
    tailLines = 0;
    lines = [];
    let written: number;
    try {
      fd ??= options.fd();
      written = writeSync(fd, batch);
    } catch (error) {
      if (TRY_LATER.has(errorCode(error) ?? '')) {
        written = 0;
      } else {
        // The reader is gone (EPIPE) or the output broken: these lines are lost, nothing waits.
        dropped += lineCount;
        backlog = 0;
        return true;
      }
    }
    if (written >= batch.length) {
      backlog = 0;
      return true;
    }
    tail = batch.subarray(written);
    tailLines = countLineEnds(tail);
    backlog = tail.length;
    return false;
  }

  function flush(): void {
    if (!writeNow()) schedule();
  }

  return {
    write(line) {
      if (backlog + line.length > options.backlogBytes) {
        dropped += 1;
        return;
      }
      lines.push(line);
      backlog += line.length;
      // A full batch is written at once unless the reader is still behind with the last one.
      if (backlog >= options.batchBytes && !tail) flush();
      else schedule();
    },
    flush,
    flushWithin(ms) {
      const deadline = performance.now() + ms;
      while (!writeNow()) {
        if (performance.now() >= deadline) {
          // Given up on: what the reader did not take counts as dropped, a line cut short too.
          dropped += tailLines + lines.length;
          tail = undefined;
          tailLines = 0;
          lines = [];
          backlog = 0;
          return;
        }
        sleepSync(10);
      }
    },
    droppedLines: () => dropped,
  };
}

/**
 * Standard output as a descriptor writes to never wait on. A terminal is reopened as a
 * description of its own, non-blocking (Linux), leaving the shell's own as it was; a pipe or
 * socket is switched to non-blocking by Node's own `process.stdout`, as any `console.log` does.
 * A file is written as it is: a disk does not stall like a reader.
 */
export function nonBlockingStandardOutput(): number {
  const info = fstatSync(1);
  if (info.isCharacterDevice() && isatty(1)) {
    try {
      return openSync(
        '/proc/self/fd/1',
        constants.O_WRONLY | constants.O_APPEND | constants.O_NONBLOCK | constants.O_NOCTTY,
      );
    } catch {
      return 1;
    }
  }
  // libuv opens the stream's pipe or socket in non-blocking mode; this process never writes to it.
  if (info.isFIFO() || info.isSocket()) void process.stdout.writable;
  return 1;
}
