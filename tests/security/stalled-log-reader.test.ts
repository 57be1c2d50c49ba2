import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInstance, type Instance } from '#tests/faults/support/instance.ts';
import { freePort } from '#tests/support/free-port.ts';

/**
 * Issue 38, item 1 (decision 207): with standard output a pipe whose reader stopped reading (a
 * stalled log shipper, a blocking container log driver), every request waited once the pipe was
 * full, `/healthz` timed out, and SIGTERM was never handled. Logging never blocks serving now:
 * lines the pipe cannot take are dropped and counted, and every exit step is bounded.
 */
describe('a server whose standard output nobody reads', () => {
  let work: string;
  let reader: number;
  let metricsPort: number;
  let instance: Instance | undefined;

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'orgsmith-stalled-log-'));
    // A named pipe: the kernel's 64 KiB pipe buffer, as a shell pipe or a log driver's FIFO has.
    const fifo = path.join(work, 'stdout');
    execFileSync('mkfifo', [fifo]);
    // Opened for reading (so the server's end opens) and never read.
    reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = openSync(fifo, constants.O_WRONLY);
    metricsPort = await freePort();
    try {
      instance = await startInstance({
        port: await freePort(),
        stdout: writer,
        env: {
          DATA_DIR: path.join(work, 'data'),
          METRICS_PORT: String(metricsPort),
          SMTP_URL: '',
          LOG_LEVEL: 'info',
        },
      });
    } finally {
      closeSync(writer);
    }
  });
  afterAll(async () => {
    await instance?.kill();
    closeSync(reader);
    await rm(work, { recursive: true, force: true });
  });

  it('keeps answering once the pipe is full, and counts the log lines it dropped', async () => {
    const server = instance;
    if (!server) throw new Error('no server');
    // Each request writes a request line of about 1 kB: 2 MB in all, beyond the 64 KiB pipe and
    // the server's 1 MiB backlog.
    const longPath = `/no-such-page-${'x'.repeat(1000)}`;
    for (let sent = 0; sent < 2000; sent += 10) {
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          const res = await fetch(`${server.url}${longPath}`, {
            signal: AbortSignal.timeout(5_000),
          }).catch((error: unknown) => {
            throw new Error(`request ${sent} not answered while nobody reads the log: ${error}`);
          });
          await res.arrayBuffer();
        }),
      );
    }
    const started = performance.now();
    const health = await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(2_000) });
    expect(health.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(2_000);

    const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, {
      signal: AbortSignal.timeout(2_000),
    });
    const dropped = /^orgsmith_log_lines_dropped_total (\d+)$/m.exec(await metrics.text());
    expect(dropped?.[1]).toBeDefined();
    expect(Number(dropped?.[1])).toBeGreaterThan(0);
  });

  it('stops on SIGTERM within seconds, the rest of its log given up after one', async () => {
    const server = instance;
    if (!server) throw new Error('no server');
    const started = performance.now();
    const code = await server.stop();
    instance = undefined;
    expect(code).toBe(0);
    // The drain (no request is open) plus a one-second flush, far below a hang.
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
