import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSmtpSink } from './support/use-smtp-sink.ts';
import { createPostgresDatabase, startInstance } from './support/instance.ts';
import { acknowledged, report, runLoad, submissions, tally, waitForMail } from './support/load.ts';
import { missingFromDatabase } from './support/stored.ts';

// One outage per file, so the fault files run side by side (vitest.faults.config.ts); each has its
// own SMTP sink port and instance ports.
const SMTP_PORT = 2564;

describe('outages', () => {
  const sink = useSmtpSink({ port: SMTP_PORT });

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
