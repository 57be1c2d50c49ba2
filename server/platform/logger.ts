import { pino, type Logger } from 'pino';
import { createLogOutput, nonBlockingStandardOutput, type LogOutput } from './log-output.ts';

export type { Logger };

/** Bytes of log lines gathered before one write to standard output (decision 150). */
export const LOG_BUFFER_BYTES = 8192;
/** The longest a log line waits in that buffer, in milliseconds (decision 150). */
export const LOG_FLUSH_MS = 100;
/** Log lines kept for a reader that does not keep up; further lines are dropped (decision 207). */
export const LOG_BACKLOG_BYTES = 1024 * 1024;
/** At exit, the longest the process waits for a reader to take the rest (decision 207). */
export const LOG_EXIT_FLUSH_MS = 1000;

let standardOutput: LogOutput | undefined;

/**
 * Standard output for every logger of the process: lines gathered into one write per 8 kB or
 * 100 ms instead of a system call per line, which at thousands of requests a second cost a tenth
 * of the CPU (decision 150). A reader that stalls never stops the service: lines beyond a 1 MiB
 * backlog are dropped and counted, and the rest gets one second at exit (decision 207).
 */
function bufferedStandardOutput(): LogOutput {
  if (!standardOutput) {
    const output = createLogOutput({
      // Opened at the first line: a silent logger leaves standard output alone.
      fd: nonBlockingStandardOutput,
      batchBytes: LOG_BUFFER_BYTES,
      flushMs: LOG_FLUSH_MS,
      backlogBytes: LOG_BACKLOG_BYTES,
    });
    process.once('exit', () => output.flushWithin(LOG_EXIT_FLUSH_MS));
    standardOutput = output;
  }
  return standardOutput;
}

/** Log lines standard output could not take, for `/metrics` (decision 207). */
export function droppedLogLines(): number {
  return standardOutput?.droppedLines() ?? 0;
}

/** JSON lines on standard output at `level` and above. */
export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'orgsmith-web' } }, bufferedStandardOutput());
}
