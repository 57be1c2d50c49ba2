import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, chmod, chown, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runLicenceAction } from '#server/licensing/licence-support/licence-actions.ts';
import { openDatabase } from '#server/platform/db/client.ts';
import { freePort } from '#tests/support/free-port.ts';
import { createLicence, postJson } from '#tests/support/licensing.ts';
import { createTestApp, type TestApp } from '#tests/support/test-app.ts';
import type { TestDatabaseTarget } from '#tests/support/databases.ts';
import { report } from '../faults/support/load.ts';

/** Debian's PostgreSQL 15 server binaries (postgresql-15) and pgBackRest (pgbackrest). */
const BIN = '/usr/lib/postgresql/15/bin';
const PGBACKREST = '/usr/bin/pgbackrest';
const STANZA = 'orgsmith';
const missing = [path.join(BIN, 'initdb'), path.join(BIN, 'pg_ctl'), PGBACKREST].filter(
  (file) => !existsSync(file),
);
const VALIDATE = '/account/v1/licenses/validate';
const ENV = { LICENSE_VALIDATION_CACHE_SECONDS: '0', LICENSE_VALIDATION_RATE_LIMIT: '0' };

/** Runs a command as `postgres` when this process is root (initdb and the server refuse root). */
function run(command: string, args: string[]): string {
  const asRoot = process.getuid?.() === 0;
  const [file, argv] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', command, ...args]]
    : [command, args];
  return execFileSync(file, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * Issue 43, item 4 (decision 237): point-in-time recovery with pgBackRest on a PostgreSQL cluster
 * of the test's own (initdb in a temporary directory, its own port, never the system's cluster):
 * WAL archived by `archive_command`, a full backup, licence A issued and validating, the time
 * noted, licence A revoked; restored to the noted time, licence A validates as it did then.
 */
describe.skipIf(missing.length > 0)(
  `point-in-time recovery with pgBackRest${missing.length > 0 ? ` (skipped: ${missing.join(', ')} missing; apt-get install postgresql-15 pgbackrest)` : ''}`,
  () => {
    let work = '';
    let data = '';
    let config = '';
    let port = 0;
    let url = '';
    let running = false;

    const pgCtl = (...args: string[]) =>
      run(path.join(BIN, 'pg_ctl'), ['-D', data, '-l', path.join(work, 'postgres.log'), ...args]);
    const pgbackrest = (...args: string[]) =>
      run(PGBACKREST, [`--config=${config}`, `--stanza=${STANZA}`, ...args]);

    async function start(): Promise<void> {
      pgCtl('start', '-w', '-t', '60');
      running = true;
    }

    async function stop(): Promise<void> {
      pgCtl('stop', '-m', 'fast', '-w');
      running = false;
    }

    /** The test app on the cluster's `orgsmith` database (its own migrations on first open). */
    function app(): Promise<TestApp> {
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

    async function query<T>(text: string, database = 'orgsmith'): Promise<T[]> {
      const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database });
      await client.connect();
      try {
        return (await client.query(text)).rows as T[];
      } finally {
        await client.end();
      }
    }

    beforeAll(async () => {
      work = await mkdtemp(path.join(tmpdir(), 'orgsmith-pitr-'));
      data = path.join(work, 'data');
      config = path.join(work, 'pgbackrest.conf');
      port = await freePort();
      url = `postgres://postgres@127.0.0.1:${port}/orgsmith`;
      for (const dir of ['repo', 'log', 'lock', 'spool']) await mkdir(path.join(work, dir));
      await writeFile(
        config,
        [
          '[global]',
          `repo1-path=${path.join(work, 'repo')}`,
          'repo1-retention-full=1',
          `log-path=${path.join(work, 'log')}`,
          `lock-path=${path.join(work, 'lock')}`,
          `spool-path=${path.join(work, 'spool')}`,
          'log-level-console=warn',
          'log-level-file=off',
          'start-fast=y',
          'compress-type=none',
          '',
          `[${STANZA}]`,
          `pg1-path=${data}`,
          `pg1-port=${port}`,
          `pg1-socket-path=${work}`,
          'pg1-user=postgres',
          '',
        ].join('\n'),
      );
      if (process.getuid?.() === 0) {
        const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
        const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
        await chmod(work, 0o755);
        for (const entry of ['', 'repo', 'log', 'lock', 'spool', 'pgbackrest.conf']) {
          await chown(path.join(work, entry), uid, gid);
        }
      }
      run(path.join(BIN, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
      await appendFile(
        path.join(data, 'postgresql.conf'),
        [
          '',
          `port = ${port}`,
          "listen_addresses = '127.0.0.1'",
          `unix_socket_directories = '${work}'`,
          'wal_level = replica',
          'archive_mode = on',
          `archive_command = '${PGBACKREST} --config=${config} --stanza=${STANZA} archive-push %p'`,
          'max_wal_senders = 3',
          'shared_buffers = 32MB',
          '',
        ].join('\n'),
      );
      await start();
      await query('create database orgsmith', 'postgres');
      pgbackrest('stanza-create');
      pgbackrest('check');
    }, 120_000);

    afterAll(async () => {
      if (running) await stop().catch(() => undefined);
      if (work) await rm(work, { recursive: true, force: true });
    });

    it('restores to a time between two writes: licence A validates as it did then', async () => {
      pgbackrest('backup', '--type=full');

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
        [{ noted = '' } = { noted: '' }] = await query<{ noted: string }>(
          `select to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') || '+00' as noted`,
        );
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
      // Switches to a new WAL segment and waits until the one holding the revocation is archived.
      pgbackrest('check');

      await stop();
      const started = performance.now();
      pgbackrest(
        'restore',
        '--delta',
        '--type=time',
        `--target=${noted}`,
        '--target-action=promote',
      );
      await start();
      // Recovery replays the archived WAL up to the noted time, then promotes.
      for (const deadline = Date.now() + 60_000; ;) {
        const [row] = await query<{ recovering: boolean }>(
          'select pg_is_in_recovery() as recovering',
        ).catch(() => [{ recovering: true }]);
        if (row && !row.recovering) break;
        if (Date.now() > deadline) throw new Error('still recovering after 60 s');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const seconds = (performance.now() - started) / 1000;
      report('pitr', { pitr_restore_s: Number(seconds.toFixed(2)), target: noted });

      t = await app();
      try {
        expect(await validate(t, licenseKey)).toBe('VALID');
        const [licence] = await query<{ status: string; revoked_at: Date | null }>(
          `select status, revoked_at from licences where id = '${licenceId}'`,
        );
        expect(licence).toMatchObject({ status: 'Active', revoked_at: null });
      } finally {
        await t.close();
      }
    });
  },
);
