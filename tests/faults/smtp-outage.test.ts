import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSmtpSink } from './support/use-smtp-sink.ts';
import { startInstance } from './support/instance.ts';
import { acknowledged, report, runLoad, submissions, tally, waitForMail } from './support/load.ts';

// One outage per file, so the fault files run side by side (vitest.faults.config.ts); each has its
// own SMTP sink port and instance ports.
const SMTP_PORT = 2562;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('outages', () => {
  const sink = useSmtpSink({ port: SMTP_PORT });

  it('SMTP down for 60 s: everything acknowledged meanwhile is delivered once it is back', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-faults-'));
    const instance = await startInstance({
      port: 3262,
      env: { SMTP_URL: sink.url, DATA_DIR: dataDir },
    });
    try {
      await sink.stop();
      const downAt = Date.now();
      const outcomes = await runLoad({
        submissions: submissions(`smtp-${Date.now()}`, 60),
        concurrency: 5,
        target: () => instance.url,
      });
      const acked = acknowledged(outcomes).map((outcome) => outcome.submission);
      expect(acked).toHaveLength(60);
      await sleep(Math.max(0, 60_000 - (Date.now() - downAt)));
      await sink.start();
      // Retries back off 10 s, 20 s, 40 s…: the last is at most ~40 s after the relay returns.
      const { seconds, missing } = await waitForMail(sink, acked, 90_000);
      const figures = tally(sink, acked);
      report('SMTP down 60 s', { ...figures, deliveredSecondsAfterBack: seconds.toFixed(1) });
      expect(missing).toEqual([]);
      expect(figures.duplicated).toBe(0);
    } finally {
      await sink.start().catch(() => undefined);
      await instance.kill();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
