import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '#tests/support/smtp-sink.ts';
import { createPostgresDatabase, startInstance } from './support/instance.ts';
import { createPrivateCluster } from './support/private-cluster.ts';
import {
  acknowledged,
  repeatedMessageIds,
  report,
  runLoad,
  send,
  submissions,
  tally,
  waitForMail,
  type Outcome,
} from './support/load.ts';
import { missingFromDatabase } from './support/stored.ts';

const SMTP_PORT = 2562;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('outages', () => {
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink({ port: SMTP_PORT });
  });
  afterAll(() => sink.close());

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

  it('two instances on one PostgreSQL, one killed mid-run: every acknowledged e-mail once', async () => {
    const postgres = await createPostgresDatabase();
    const dirs = [
      await mkdtemp(path.join(tmpdir(), 'orgsmith-faults-')),
      await mkdtemp(path.join(tmpdir(), 'orgsmith-faults-')),
    ];
    const env = (dir: string) => ({
      SMTP_URL: sink.url,
      DATA_DIR: dir,
      DATABASE_URL: postgres.url,
    });
    const a = await startInstance({ port: 3264, env: env(dirs[0] ?? '') });
    const b = await startInstance({ port: 3265, env: env(dirs[1] ?? '') });
    let aAlive = true;
    try {
      let killedAt = 0;
      const outcomes = await runLoad({
        submissions: submissions(`two-${Date.now()}`, 300),
        concurrency: 10,
        // Round robin, as a balancer would; after the kill, the balancer sends everything to b.
        target: (s) => (aAlive && s.n % 2 === 0 ? a.url : b.url),
        onOutcome: async (_o, done) => {
          if (aAlive && acknowledged(done).length >= 150) {
            aAlive = false;
            killedAt = Date.now();
            await a.kill();
          }
        },
      });
      const acked = acknowledged(outcomes).map((o) => o.submission);
      const refused = outcomes.filter((o) => o.status === 0).length;
      const bad = outcomes.filter((o) => o.status !== 204 && o.status !== 0);
      const { seconds, missing } = await waitForMail(sink, acked, 45_000);
      const figures = tally(sink, acked);
      const notStored = await missingFromDatabase({ databaseUrl: postgres.url }, acked);
      report('two instances, one killed', {
        sent: outcomes.length,
        ...figures,
        failedInFlight: refused,
        notStored: notStored.length,
        allMailedSecondsAfterKill: ((Date.now() - killedAt) / 1000 - 0).toFixed(1),
        waitedSeconds: seconds.toFixed(1),
      });
      expect(bad.map((o) => `${o.status} ${o.body}`)).toEqual([]);
      // Only the killed instance's requests in flight fail.
      expect(refused).toBeLessThanOrEqual(10);
      expect(missing).toEqual([]);
      expect(notStored).toEqual([]);
      expect(figures.duplicated).toBeLessThanOrEqual(4);
    } finally {
      await a.kill();
      await b.kill();
      for (const dir of dirs) await rm(dir, { recursive: true, force: true });
      await postgres.drop();
    }
  });
});
