import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSmtpSink } from './support/use-smtp-sink.ts';
import { startInstance } from './support/instance.ts';
import { createPrivateCluster } from './support/private-cluster.ts';
import {
  acknowledged,
  repeatedMessageIds,
  report,
  send,
  submissions,
  tally,
  waitForMail,
  type Outcome,
} from './support/load.ts';
import { missingFromDatabase } from './support/stored.ts';

// One outage per file, so the fault files run side by side (vitest.faults.config.ts); each has its
// own SMTP sink port and instance ports.
const SMTP_PORT = 2563;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('outages', () => {
  const sink = useSmtpSink({ port: SMTP_PORT });

  it('PostgreSQL restarted under load: 503 JSON meanwhile, back within 5 s, nothing lost or sent twice', async () => {
    // A cluster of the test's own: restarting it leaves the other files' databases alone.
    const cluster = await createPrivateCluster();
    const dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-faults-'));
    const instance = await startInstance({
      port: 3263,
      env: { SMTP_URL: sink.url, DATA_DIR: dataDir, DATABASE_URL: cluster.url },
    }).catch((error: unknown) => {
      cluster.drop();
      throw error;
    });
    try {
      const run = `pg-${Date.now()}`;
      const all = submissions(run, 600);
      let next = 0;
      let stop = false;
      const outcomes: Array<Outcome & { at: number }> = [];
      // Steady load from four clients until told to stop.
      const clients = Array.from({ length: 4 }, async () => {
        while (!stop && next < all.length) {
          const submission = all[next++];
          if (!submission) break;
          const outcome = await send(instance.url, submission, 15_000);
          outcomes.push({ ...outcome, at: Date.now() });
          // About 25 requests a second: a busy sign-up day, well within what mail keeps up with.
          await sleep(150);
        }
      });
      await sleep(2_000);
      const restartStarted = Date.now();
      // A slow restart: down for 5 s, longer than a request waits for a connection (3 s).
      cluster.stop();
      await sleep(5_000);
      cluster.start();
      let backAt = Date.now();
      while (!cluster.ready()) {
        await sleep(100);
        backAt = Date.now();
      }
      // Keep the load on until the service has answered well for a while.
      await sleep(8_000);
      stop = true;
      await Promise.all(clients);

      const byStatus = new Map<number, number>();
      for (const o of outcomes) byStatus.set(o.status, (byStatus.get(o.status) ?? 0) + 1);
      const bad = outcomes.filter((o) => ![204, 503].includes(o.status));
      const unavailable = outcomes.filter((o) => o.status === 503);
      const firstOkAfterBack = outcomes.find((o) => o.at > backAt && o.status === 204);
      const recoverySeconds = firstOkAfterBack ? (firstOkAfterBack.at - backAt) / 1000 : Infinity;
      const slowest = Math.max(...outcomes.map((o) => o.ms));
      const acked = acknowledged(outcomes).map((o) => o.submission);
      const { missing } = await waitForMail(sink, acked, 60_000);
      // Late repeats would come once the leases of unrecorded sends ran out (15 s).
      await sleep(16_000);
      const notStored = await missingFromDatabase({ databaseUrl: cluster.url }, acked);
      const figures = tally(sink, acked);
      const repeated = repeatedMessageIds(sink);
      report('PostgreSQL restart', {
        requests: outcomes.length,
        ...figures,
        repeatedMessageIds: repeated.length,
        unavailable503: unavailable.length,
        other: bad.length,
        outageSeconds: ((backAt - restartStarted) / 1000).toFixed(1),
        recoverySeconds: recoverySeconds.toFixed(1),
        slowestMs: slowest,
        notStored: notStored.length,
      });
      expect(bad.map((o) => `${o.status} ${o.body}`)).toEqual([]);
      for (const o of unavailable) {
        expect(JSON.parse(o.body)).toMatchObject({ Error: 'ServiceUnavailable' });
      }
      expect(unavailable.length).toBeGreaterThan(0);
      expect(slowest).toBeLessThan(10_000);
      expect(recoverySeconds).toBeLessThanOrEqual(5);
      expect(missing).toEqual([]);
      expect(notStored).toEqual([]);
      // Sent while PostgreSQL was away, recorded once it was back: nothing twice (decision 132).
      expect(figures.duplicated).toBe(0);
      expect(repeated).toEqual([]);
    } finally {
      await instance.kill();
      await rm(dataDir, { recursive: true, force: true });
      cluster.drop();
    }
  });
});
