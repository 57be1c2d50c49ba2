import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runLicenceAction } from '#server/licensing/licence-support/licence-actions.ts';
import { openDatabase } from '#server/platform/db/client.ts';
import { createLicence, postJson } from '#tests/support/licensing.ts';
import { pitrMissing, startPitrCluster, type PitrCluster } from '#tests/support/pitr-cluster.ts';
import { createTestApp, type TestApp } from '#tests/support/test-app.ts';
import type { TestDatabaseTarget } from '#tests/support/databases.ts';
import { report } from '../faults/support/load.ts';

const VALIDATE = '/account/v1/licenses/validate';
const ENV = { LICENSE_VALIDATION_CACHE_SECONDS: '0', LICENSE_VALIDATION_RATE_LIMIT: '0' };

/**
 * Issue 43, item 4 (decision 237): point-in-time recovery with pgBackRest on a PostgreSQL cluster
 * of the test's own (`tests/support/pitr-cluster.ts`): WAL archived by `archive_command`, a full
 * backup, licence A issued and validating, the time noted, licence A revoked; restored to the
 * noted time, licence A validates as it did then.
 */
describe.skipIf(pitrMissing.length > 0)(
  `point-in-time recovery with pgBackRest${pitrMissing.length > 0 ? ` (skipped: ${pitrMissing.join(', ')} missing; apt-get install postgresql-15 pgbackrest)` : ''}`,
  () => {
    let cluster: PitrCluster | undefined;

    /** The test app on the cluster's `orgsmith` database (its own migrations on first open). */
    function app(): Promise<TestApp> {
      const url = cluster?.url ?? '';
      const target: TestDatabaseTarget = {
        name: 'postgres',
        open: () => openDatabase({ databaseUrl: url }),
      };
      return createTestApp(target, { env: ENV });
    }

    async function validate(t: TestApp, licenseKey: string): Promise<string> {
      const res = await postJson(t, VALIDATE, { licenseKey, productId: 'orgsmith-cli' });
      expect(res.status).toBe(200);
      return z.object({ code: z.string() }).parse(await res.json()).code;
    }

    beforeAll(async () => {
      cluster = await startPitrCluster();
    }, 120_000);

    afterAll(async () => {
      await cluster?.close();
    });

    it('restores to a time between two writes: licence A validates as it did then', async () => {
      if (!cluster) throw new Error('no cluster');
      cluster.backup();

      let t = await app();
      let licenseKey: string;
      let licenceId: string;
      let noted: string;
      try {
        const issued = await createLicence(t);
        licenseKey = issued.key;
        licenceId = issued.licence.id;
        expect(await validate(t, licenseKey)).toBe('VALID');
        // The time between the two writes, in PostgreSQL's own clock (what recovery compares).
        noted = await cluster.now();
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        const revoked = await runLicenceAction(
          {
            db: t.deps.database.db,
            secretKey: t.deps.secretKey,
            publicBaseUrl: t.deps.env.PUBLIC_BASE_URL,
            accountBaseUrl: t.deps.env.PUBLIC_BASE_URL,
            clock: t.deps.clock,
          },
          { actor: 'operator:pitr', requestId: 'req-pitr' },
          licenceId,
          { kind: 'revoke', reason: 'point-in-time recovery test' },
        );
        expect(revoked).toMatchObject({ ok: true, state: 'revoked' });
        expect(await validate(t, licenseKey)).toBe('DEACTIVATED');
      } finally {
        await t.close();
      }
      const seconds = await cluster.restoreTo(noted);
      report('pitr', { pitr_restore_s: Number(seconds.toFixed(2)), target: noted });

      t = await app();
      try {
        expect(await validate(t, licenseKey)).toBe('VALID');
        const [licence] = await cluster.query<{ status: string; revoked_at: Date | null }>(
          `select status, revoked_at from licences where id = '${licenceId}'`,
        );
        expect(licence).toMatchObject({ status: 'Active', revoked_at: null });
      } finally {
        await t.close();
      }
    });
  },
);
