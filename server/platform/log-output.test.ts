import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogOutput } from './log-output.ts';

/** A named pipe with both ends open and non-blocking, as standard output is to a log reader. */
function pipe() {
  const dir = mkdtempSync(path.join(tmpdir(), 'orgsmith-log-output-'));
  const fifo = path.join(dir, 'pipe');
  execFileSync('mkfifo', [fifo]);
  const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  const writer = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
  const open = new Set([reader, writer]);
  const close = (fd: number) => {
    if (open.delete(fd)) closeSync(fd);
  };
  cleanups.push(() => {
    for (const fd of open) close(fd);
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    writer,
    /** Everything in the pipe now. */
    read(): string {
      const chunks: Buffer[] = [];
      const buffer = Buffer.alloc(65536);
      for (;;) {
        try {
          const n = readSync(reader, buffer);
          if (n === 0) break;
          chunks.push(Buffer.from(buffer.subarray(0, n)));
        } catch {
          break;
        }
      }
      return Buffer.concat(chunks).toString('utf8');
    },
    closeReader: () => close(reader),
  };
}

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const line = (n: number) => `${JSON.stringify({ n, pad: 'p'.repeat(200) })}\n`;

describe('createLogOutput', () => {
  it('drops and counts lines past the backlog while nobody reads, then writes whole lines again', () => {
    const { writer, read } = pipe();
    const output = createLogOutput({
      fd: () => writer,
      batchBytes: 8192,
      flushMs: 10_000,
      backlogBytes: 32 * 1024,
    });
    // 400 kB: the 64 KiB pipe fills, 32 kB wait, the rest is dropped; no call waits.
    const started = performance.now();
    for (let n = 0; n < 2000; n++) output.write(line(n));
    expect(performance.now() - started).toBeLessThan(1_000);
    const dropped = output.droppedLines();
    expect(dropped).toBeGreaterThan(1000);

    // The reader is back: the pipe and then the backlog arrive as whole lines, nothing else lost.
    let text = read();
    output.flushWithin(1_000);
    text += read();
    const lines = text.split('\n').filter(Boolean);
    for (const written of lines) expect(() => JSON.parse(written)).not.toThrow();
    expect(lines).toHaveLength(2000 - dropped);
    expect(output.droppedLines()).toBe(dropped);
  });

  it('gives up at exit after the time it is given, counting what is left', () => {
    const { writer } = pipe();
    const output = createLogOutput({
      fd: () => writer,
      batchBytes: 8192,
      flushMs: 10_000,
      backlogBytes: 1024 * 1024,
    });
    for (let n = 0; n < 1000; n++) output.write(line(n));
    const started = performance.now();
    output.flushWithin(300);
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(290);
    expect(waited).toBeLessThan(1_000);
    // What the 64 KiB pipe took stays in it; every other line counts as dropped.
    expect(output.droppedLines()).toBeGreaterThan(600);
    expect(output.droppedLines()).toBeLessThan(1000);
  });

  it('drops, without waiting or failing, once the reader has gone', () => {
    const { writer, closeReader } = pipe();
    closeReader();
    const output = createLogOutput({
      fd: () => writer,
      batchBytes: 100,
      flushMs: 10_000,
      backlogBytes: 1024 * 1024,
    });
    for (let n = 0; n < 10; n++) output.write(line(n));
    const started = performance.now();
    output.flushWithin(5_000);
    expect(performance.now() - started).toBeLessThan(100);
    expect(output.droppedLines()).toBe(10);
  });
});
