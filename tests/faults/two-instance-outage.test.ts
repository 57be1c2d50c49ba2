import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSmtpSink } from './support/use-smtp-sink.ts';
import { createPostgresDatabase, startInstance, type Instance } from './support/instance.ts';
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
import { startTcpProxy } from './support/tcp-proxy.ts';

const SMTP_PORT = 2566;
const PORTS = [3266, 3267] as const;
/** Longer than the outbox lease (15 s): a claim made before the cut has lapsed when it ends. */
const OUTAGE_MS = 20_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('two instances, PostgreSQL away longer than the outbox lease', () => {
  // A slow relay (300 ms a message), so sends are on the wire when the database goes.
  const sink = useSmtpSink({ port: SMTP_PORT, delayMs: 300 });

  it(`cut off for ${OUTAGE_MS / 1000} s during sends: nothing lost, nothing sent twice`, async () => {
    const postgres = await createPostgresDatabase();
    const direct = new URL(postgres.url);
    // The instances reach PostgreSQL through a proxy this test cuts: only they lose it.
    const proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const viaProxy = new URL(postgres.url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const dirs = await Promise.all(
      PORTS.map(() => mkdtemp(path.join(tmpdir(), 'orgsmith-faults-'))),
    );
    const instances: Instance[] = [];
    try {
      for (const [index, port] of PORTS.entries()) {
        instances.push(
          await startInstance({
            port,
            // Two servers starting on a busy machine: more than the default 30 s to listen.
            timeoutMs: 90_000,
            env: {
              SMTP_URL: sink.url,
              DATA_DIR: dirs[index] ?? '',
              DATABASE_URL: viaProxy.toString(),
            },
          }),
        );
      }
      const all = submissions(`long-outage-${Date.now()}`, 1000);
      let next = 0;
      let stop = false;
      const outcomes: Array<Outcome & { at: number }> = [];
      const sendNext = async () => {
        const submission = all[next++];
        if (!submission) return;
        const instance = instances[submission.n % instances.length] as Instance;
        const outcome = await send(instance.url, submission, 15_000);
        outcomes.push({ ...outcome, at: Date.now() });
      };
      // Steady load, round robin over both instances as a balancer would.
      const clients = Array.from({ length: 4 }, async () => {
        while (!stop && next < all.length) {
          await sendNext();
          await sleep(100);
        }
      });
      await sleep(6_000);
      // A burst, then the cut while its e-mails are on the wire on both instances.
      const mailsBefore = sink.messages.length;
      const burst = Array.from({ length: 40 }, () => sendNext());
      const burstDeadline = Date.now() + 30_000;
      while (sink.messages.length < mailsBefore + 6 && Date.now() < burstDeadline) await sleep(20);
      await proxy.cut();
      const cutAt = Date.now();
      await sleep(OUTAGE_MS);
      await proxy.restore();
      await Promise.all(burst);
      const backAt = Date.now();
      const outageSeconds = (backAt - cutAt) / 1000;
      await sleep(10_000);
      stop = true;
      await Promise.all(clients);

      const acked = acknowledged(outcomes).map((o) => o.submission);
      const bad = outcomes.filter((o) => ![204, 503].includes(o.status));
      const { missing } = await waitForMail(sink, acked, 60_000);
      // A repeat would come once a lapsed claim is taken over: lease (15 s) plus the wait (10 s).
      await sleep(30_000);
      const notStored = await missingFromDatabase({ databaseUrl: postgres.url }, acked);
      const figures = tally(sink, acked);
      const repeated = repeatedMessageIds(sink);
      const logs = instances.map((instance) => instance.log.join(''));
      const firstOkAfterBack = outcomes.find((o) => o.at > backAt && o.status === 204);
      const recoverySeconds = firstOkAfterBack ? (firstOkAfterBack.at - backAt) / 1000 : Infinity;
      if (process.env.FAULTS_LOG_DIR) {
        const { writeFile } = await import('node:fs/promises');
        for (const [index, log] of logs.entries()) {
          await writeFile(path.join(process.env.FAULTS_LOG_DIR, `instance-${index}.log`), log);
        }
      }
      const keptDuringOutage = logs
        .map((log) => log.split('could not record an e-mail outcome').length - 1)
        .reduce((sum, count) => sum + count, 0);
      const takenOver = logs
        .map((log) => log.split('taken over before its outcome was recorded').length - 1)
        .reduce((sum, count) => sum + count, 0);
      report('two instances, PostgreSQL away 20 s', {
        requests: outcomes.length,
        ...figures,
        repeatedMessageIds: repeated.length,
        unavailable503: outcomes.filter((o) => o.status === 503).length,
        other: bad.length,
        outageSeconds: outageSeconds.toFixed(1),
        recoverySeconds: recoverySeconds.toFixed(1),
        keptDuringOutage,
        takenOver,
        notStored: notStored.length,
      });
      expect(bad.map((o) => `${o.status} ${o.body}`)).toEqual([]);
      // The case at stake happened: sends the database could not hear about until it was back.
      expect(keptDuringOutage).toBeGreaterThan(0);
      expect(missing.map((s) => s.email)).toEqual([]);
      expect(notStored.map((s) => s.email)).toEqual([]);
      expect(figures.lost).toBe(0);
      expect(figures.duplicated).toBe(0);
      expect(repeated).toEqual([]);
      expect(takenOver).toBe(0);
    } finally {
      await Promise.all(instances.map((instance) => instance.kill()));
      await proxy.close();
      await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
      await postgres.drop();
    }
  });
});
