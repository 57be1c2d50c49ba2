import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSmtpSink } from './support/use-smtp-sink.ts';
import {
  createPostgresDatabase,
  queryPostgres,
  startInstance,
  type Instance,
} from './support/instance.ts';
import {
  acknowledged,
  report,
  runLoad,
  submissions,
  tally,
  waitForMail,
  type Outcome,
} from './support/load.ts';
import { missingFromDatabase } from './support/stored.ts';

const SMTP_PORT = 2561;
const PORT = 3261;
const TOTAL = 300;
/** Every acknowledged e-mail must be out this soon after the restart (issue 13). */
const RECOVERY_LIMIT_S = 30;

describe('kill -9 under load, then restart', () => {
  // A slow relay (40 ms per message), so claimed messages are on their way when the kill lands.
  const sink = useSmtpSink({ port: SMTP_PORT, delayMs: 40 });

  for (const kind of ['pglite', 'postgres'] as const) {
    it(`loses no acknowledged message or licence on ${kind}, and mails all within ${RECOVERY_LIMIT_S} s`, async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-faults-'));
      const postgres = kind === 'postgres' ? await createPostgresDatabase() : undefined;
      const env: Record<string, string> = {
        SMTP_URL: sink.url,
        DATA_DIR: dataDir,
        ...(postgres ? { DATABASE_URL: postgres.url } : {}),
      };
      let instance: Instance | undefined = await startInstance({ port: PORT, env });
      try {
        const run = `crash-${kind}-${Date.now()}`;
        let killed = false;
        const outcomes = await runLoad({
          submissions: submissions(run, TOTAL),
          concurrency: 10,
          target: () => `http://127.0.0.1:${PORT}`,
          onOutcome: async (_outcome: Outcome, done) => {
            if (!killed && acknowledged(done).length >= TOTAL / 2) {
              killed = true;
              await instance?.kill();
            }
          },
        });
        const acked = acknowledged(outcomes).map((outcome) => outcome.submission);
        const failedHard = outcomes.filter(
          (o) => o.status >= 500 || (o.status > 0 && o.status !== 204),
        );
        expect(failedHard.map((o) => `${o.status} ${o.body}`)).toEqual([]);

        const restarted = Date.now();
        instance = await startInstance({ port: PORT, env });
        const upSeconds = (Date.now() - restarted) / 1000;
        const { seconds, missing } = await waitForMail(sink, acked, 60_000);
        const released = /"released":(\d+)/.exec(instance.log.join(''))?.[1] ?? '0';
        await instance.stop();
        instance = undefined;
        const notStored = await missingFromDatabase(
          postgres ? { databaseUrl: postgres.url } : { dataDir },
          acked,
        );
        const figures = tally(sink, acked);
        report(`kill -9 on ${kind}`, {
          sent: TOTAL,
          ...figures,
          notStored: notStored.length,
          releasedLeases: released,
          restartSeconds: upSeconds.toFixed(1),
          recoverySeconds: (upSeconds + seconds).toFixed(1),
        });
        expect(missing.map((s) => s.email)).toEqual([]);
        expect(notStored.map((s) => s.email)).toEqual([]);
        expect(upSeconds + seconds).toBeLessThanOrEqual(RECOVERY_LIMIT_S);
        // Only a message whose DATA the relay accepted just before the kill may come twice: at
        // most the four the worker sends at once (decision 111).
        expect(figures.duplicated).toBeLessThanOrEqual(4);
      } finally {
        await instance?.kill();
        await rm(dataDir, { recursive: true, force: true });
        await postgres?.drop();
      }
    });
  }

  it('SIGTERM under load: open requests finish, the outbox batch is finished or given back', async () => {
    const postgres = await createPostgresDatabase();
    const dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-faults-'));
    const env = { SMTP_URL: sink.url, DATA_DIR: dataDir, DATABASE_URL: postgres.url };
    let instance: Instance | undefined = await startInstance({ port: PORT, env });
    try {
      const run = `term-${Date.now()}`;
      let stopping: Promise<number | null> | undefined;
      const outcomes = await runLoad({
        submissions: submissions(run, 80),
        concurrency: 10,
        target: () => `http://127.0.0.1:${PORT}`,
        onOutcome: (_o, done) => {
          if (!stopping && acknowledged(done).length >= 40) stopping = instance?.stop();
        },
      });
      const code = await stopping;
      const log = instance.log.join('');
      instance = undefined;
      const acked = acknowledged(outcomes).map((o) => o.submission);
      // Requests already on the server when the signal came were answered, not cut off.
      const cut = outcomes.filter((o) => o.status !== 204 && o.status !== 0);
      const leased = await queryPostgres<{ n: number }>(
        postgres.url,
        "select count(*)::int as n from email_outbox where status = 'pending' and leased_until is not null",
      );
      const pending = await queryPostgres<{ n: number }>(
        postgres.url,
        "select count(*)::int as n from email_outbox where status = 'pending'",
      );
      expect(code).toBe(0);
      expect(log).toContain('"msg":"stopped"');
      expect(cut.map((o) => `${o.status} ${o.body}`)).toEqual([]);
      expect(leased[0]?.n).toBe(0);
      // What was left is sent by the next start at once.
      const restarted = Date.now();
      instance = await startInstance({ port: PORT, env });
      const { missing, seconds } = await waitForMail(sink, acked, 30_000);
      report('SIGTERM under load', {
        acknowledged: acked.length,
        refusedAfterSignal: outcomes.filter((o) => o.status === 0).length,
        leftPending: pending[0]?.n ?? 0,
        leasesLeft: leased[0]?.n ?? 0,
        mailedSecondsAfterRestart: ((Date.now() - restarted) / 1000).toFixed(1),
        waited: seconds.toFixed(1),
      });
      expect(missing).toEqual([]);
    } finally {
      await instance?.kill();
      await rm(dataDir, { recursive: true, force: true });
      await postgres.drop();
    }
  });
});
