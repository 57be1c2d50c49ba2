import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createBackupRepository } from '#server/backup/backup-repository.ts';
import { runAdmin } from '#server/admin/run-admin.ts';
import { databaseFingerprint, writeBackup } from '#server/backup/backup-file.ts';
import type { DatabaseHandle } from '#server/platform/db/client.ts';
import { migrate, migrationFiles } from '#server/platform/db/migrate.ts';
import { localCustomers, rateLimitCounters, schemaMigrations } from '#server/platform/db/schema.ts';
import { createOutboxRepository } from '#server/platform/email/outbox-repository.ts';
import {
  generateLicenceKey,
  hashLicenceKey,
  licenceKeyHint,
} from '#server/licensing/licences/licence-key.ts';
import {
  hashEmailAddress,
  normalizeEmailAddress,
} from '#server/platform/email/normalize-email-address.ts';
import { siteConfig } from '#shared/site-config.ts';
import { databaseTargets, seedEmbeddedDatabase } from '../support/databases.ts';
import { createLicence, runAdminOn } from '../support/licensing.ts';
import { migrationsBefore, openOlderDatabase } from '../support/older-schema.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { postJson, requestTrial } from './account-support.ts';

describe.each(databaseTargets)('backup and restore on $name', (target) => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    t = await createTestApp(target);
    dir = await mkdtemp(path.join(tmpdir(), 'orgsmith-backup-'));
    // A little of everything: trials (licences, claims, outbox, rate-limit hits), contact
    // messages, paid licences with odd characters.
    for (let n = 0; n < 5; n++) {
      expect(
        (
          await requestTrial(t, {
            emailAddress: `trial${n}@example.com`,
            productId: 'orgsmith-cli',
          })
        ).status,
      ).toBe(204);
      const contact = await postJson(t, '/api/submitContactForm', {
        name: `Zoë “${n}” O'Brien`,
        emailAddress: `visitor${n}@example.com`,
        message: `Line one\nline two — ${n} \\ "quoted" ✓`,
      });
      expect(contact.status).toBe(204);
      await createLicence(t, { email: `paid${n}@example.com` });
    }
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    await t.close();
  });

  const wipe = async () => {
    const repository = createBackupRepository(t.deps.database.db);
    const tables = (await repository.tables()).filter(
      (table) => table.name !== 'schema_migrations',
    );
    await repository.truncateAll(tables);
  };

  /** Every index and trigger of the schema, by name and definition (a restore drops some a while). */
  const schemaObjects = async () =>
    z.object({ rows: z.array(z.object({ definition: z.string() })) }).parse(
      await t.deps.database.db.execute(sql`
        select indexdef as definition from pg_indexes where schemaname = 'public'
        union all
        select tgname || ' ' || tgenabled::text from pg_trigger t
          join pg_class c on c.oid = t.tgrelid
          join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and not t.tgisinternal
        order by 1`),
    ).rows;

  it('backs up, wipes, restores, and every table is as it was', async () => {
    const file = path.join(dir, 'full.backup.gz');
    const objects = await schemaObjects();
    expect(objects.length).toBeGreaterThan(20);
    const before = await databaseFingerprint(t.deps.database.db);
    expect(before.licences?.rows).toBe(10);
    expect(before.contact_messages?.rows).toBe(5);
    const backup = await runAdminOn(t, 'backup', file);
    expect(backup.err).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.out).toMatch(/^Backed up \d+ rows of \d+ tables to .+full\.backup\.gz/);

    await wipe();
    const empty = await databaseFingerprint(t.deps.database.db);
    expect(Object.values(empty).every((table) => table.rows === 0)).toBe(true);

    const restore = await runAdminOn(t, 'restore', file);
    expect(restore.err).toBe('');
    expect(restore.code).toBe(0);
    expect(await databaseFingerprint(t.deps.database.db)).toEqual(before);
    // The indexes it built after loading and the triggers it paused are all back, as they were.
    expect(await schemaObjects()).toEqual(objects);

    // Identity sequences continue after the restored rows.
    const outbox = createOutboxRepository(t.deps.database.db);
    const maxId = Math.max(
      ...(await outbox.listRecent({ statuses: ['pending', 'sent', 'failed'], limit: 1000 })).map(
        (r) => r.id,
      ),
    );
    const added = await outbox.enqueue(
      { kind: 'after-restore', to: 'x@example.com', subject: 'S', text: 'T', html: 'H' },
      t.deps.clock(),
    );
    expect(added.id).toBeGreaterThan(maxId);
  });

  it('leaves the rate-limit counters, an UNLOGGED cache, out of the backup (decision 238)', async () => {
    const persistence = z
      .object({ rows: z.array(z.object({ persistence: z.string() })) })
      .parse(
        await t.deps.database.db.execute(
          sql`select relpersistence as persistence from pg_class where relname = 'rate_limit_counters'`,
        ),
      ).rows;
    expect(persistence).toEqual([{ persistence: 'u' }]);
    // The forms above counted their hits in the database.
    await postJson(t, '/api/submitContactForm', {
      name: 'Counted',
      emailAddress: 'counted@example.com',
      message: 'Hello',
    });
    expect((await t.deps.database.db.select().from(rateLimitCounters)).length).toBeGreaterThan(0);
    const file = path.join(dir, 'no-counters.backup.gz');
    expect((await runAdminOn(t, 'backup', file)).code).toBe(0);
    const tables = gunzipSync(await readFile(file))
      .toString()
      .split('\n')
      .filter((line) => line.startsWith('{"table":'))
      .map((line) => z.object({ table: z.string() }).parse(JSON.parse(line)).table);
    expect(tables).toContain('licences');
    expect(tables).not.toContain('rate_limit_counters');
    expect(tables).not.toContain('live_instances');
  });

  it('says so when the backup cannot be written, and leaves nothing behind', async () => {
    const file = path.join(dir, 'no-such-directory', 'x.backup.gz');
    const result = await runAdminOn(t, 'backup', file);
    expect(result.code).toBe(1);
    expect(result.err).toBe(
      `No such directory: ${path.dirname(file)}. Create it first; nothing was written.`,
    );
    await expect(readFile(file)).rejects.toThrow();
  });

  it('replaces a database that holds data only when told to', async () => {
    const file = path.join(dir, 'again.backup.gz');
    expect((await runAdminOn(t, 'backup', file)).code).toBe(0);
    const refused = await runAdminOn(t, 'restore', file);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/^The database holds \d+ rows\. Restoring replaces all of them/);
    const replaced = await runAdminOn(t, 'restore', file, '--replace');
    expect(replaced.code).toBe(0);
  });

  it('refuses a damaged, cut-short or newer backup and changes nothing', async () => {
    const file = path.join(dir, 'good.backup.gz');
    expect((await runAdminOn(t, 'backup', file)).code).toBe(0);
    const before = await databaseFingerprint(t.deps.database.db);
    const text = gunzipSync(await readFile(file)).toString('utf8');
    const lines = text.trimEnd().split('\n');

    const cut = path.join(dir, 'cut.backup.gz');
    await writeFile(cut, gzipSync(lines.slice(0, -1).join('\n')));
    const truncated = await runAdminOn(t, 'restore', cut, '--replace');
    expect(truncated.code).toBe(1);
    expect(truncated.err).toContain('is cut short: it has no end marker. Nothing was changed.');

    const newer = path.join(dir, 'newer.backup.gz');
    const headerLine = JSON.parse(lines[0] ?? '{}') as { migrations: string[] };
    headerLine.migrations.push('9999_from_the_future.sql');
    await writeFile(newer, gzipSync([JSON.stringify(headerLine), ...lines.slice(1)].join('\n')));
    const fromFuture = await runAdminOn(t, 'restore', newer, '--replace');
    expect(fromFuture.code).toBe(1);
    expect(fromFuture.err).toContain(
      'was made by a newer version (migrations 9999_from_the_future.sql)',
    );

    // A rows line whose rows are not objects, and one PostgreSQL cannot read as its table's rows.
    const tableAt = lines.findIndex((line) => line.startsWith('{"table":"licences"'));
    expect(tableAt).toBeGreaterThan(0);
    for (const [name, rows] of [
      ['scalars', '{"rows":[1,2]}'],
      ['wrong-type', '{"rows":[{"id":"not a number"}]}'],
    ] as const) {
      const damaged = path.join(dir, `${name}.backup.gz`);
      const edited = [...lines];
      edited.splice(tableAt + 1, 1, rows);
      await writeFile(damaged, gzipSync(edited.join('\n')));
      const refused = await runAdminOn(t, 'restore', damaged, '--replace');
      expect(refused.code).toBe(1);
      expect(refused.err).toContain(`line ${tableAt + 2}`);
      expect(refused.err).toContain('Nothing was changed.');
    }

    const notBackup = path.join(dir, 'not.backup.gz');
    await writeFile(notBackup, gzipSync('{"hello":"world"}\n'));
    expect((await runAdminOn(t, 'restore', notBackup, '--replace')).err).toContain(
      'is not an Orgsmith backup',
    );

    expect((await runAdminOn(t, 'restore', path.join(dir, 'missing.gz'))).err).toContain(
      'No such file',
    );
    expect(await databaseFingerprint(t.deps.database.db)).toEqual(before);
  });
});

describe.each(databaseTargets)('restore into a fresh database on $name', (target) => {
  let t: TestApp;
  let dir: string;
  let file: string;
  beforeAll(async () => {
    t = await createTestApp(target, { env: { LICENSE_VALIDATION_CACHE_SECONDS: '0' } });
    dir = await mkdtemp(path.join(tmpdir(), 'orgsmith-backup-fresh-'));
    file = path.join(dir, 'live.backup.gz');
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    await t.close();
  });

  /** An operator command on `handle`, a database no app has written to. */
  async function runAdminOnDatabase(handle: DatabaseHandle, ...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdmin(argv, {
      io: { out: (line) => out.push(line), err: (line) => err.push(line) },
      environment: { LOG_LEVEL: 'silent' },
      openDatabase: async () => ({ ...handle, close: async () => undefined }),
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('needs no --replace where only the migrations wrote, and refuses the second time', async () => {
    const { key } = await createLicence(t, { email: 'fresh.restore@example.com' });
    // As the snapshot sees it: the backup's own record (app_state) is written after it.
    const expected = await databaseFingerprint(t.deps.database.db);
    expect((await runAdminOn(t, 'backup', file)).code).toBe(0);
    const fresh = await target.open();
    try {
      // The release catalog's seed rows are there, as in every freshly migrated database.
      expect((await databaseFingerprint(fresh.db)).releases?.rows).toBeGreaterThan(0);
      const restore = await runAdminOnDatabase(fresh, 'restore', file);
      expect(restore.err).toBe('');
      expect(restore.code).toBe(0);
      expect(await databaseFingerprint(fresh.db)).toEqual(expected);

      const again = await runAdminOnDatabase(fresh, 'restore', file);
      expect(again.code).toBe(1);
      expect(again.err).toMatch(/^The database holds \d+ rows\. Restoring replaces all of them/);
    } finally {
      await fresh.close();
    }
    const answer = await postJson(t, '/account/v1/licenses/validate', {
      licenseKey: key,
      productId: siteConfig.productId,
    });
    expect(await answer.json()).toMatchObject({ valid: true });
  });

  it('counts a changed seed row as data', async () => {
    const fresh = await target.open();
    try {
      await fresh.db.execute(sql`update releases set notes = '{}' where version = '3.2.1'`);
      const refused = await runAdminOnDatabase(fresh, 'restore', file);
      expect(refused.code).toBe(1);
      expect(refused.err).toMatch(/^The database holds 1 rows\./);
    } finally {
      await fresh.close();
    }
  });
});

describe('backup of the embedded database while a server holds it', () => {
  it('says why not, and writes nothing', async () => {
    const { spawnSync } = await import('node:child_process');
    const { openDatabase } = await import('#server/platform/db/client.ts');
    const dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-backup-lock-'));
    // A migrated database to hold, copied from the template (no initdb and migrations here).
    await seedEmbeddedDatabase(dataDir);
    const held = await openDatabase({ dataDir });
    try {
      const file = path.join(dataDir, 'x.backup.gz');
      const result = spawnSync(process.execPath, ['server/admin/cli.ts', 'backup', file], {
        env: {
          ...process.env,
          DATA_DIR: dataDir,
          DATABASE_URL: '',
          PORT: '3299',
          LOG_LEVEL: 'silent',
        },
        encoding: 'utf8',
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`is in use by process ${process.pid}`);
      await expect(readFile(file)).rejects.toThrow();
    } finally {
      await held.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe.each(databaseTargets)('restore of a backup from an older schema on $name', (target) => {
  const FIRST_MISSING = '0302_local_customer_currency.sql';
  let t: TestApp;
  let older: DatabaseHandle;
  let dir: string;
  beforeAll(async () => {
    t = await createTestApp(target, { env: { LICENSE_VALIDATION_CACHE_SECONDS: '0' } });
    older = await openOlderDatabase(target, FIRST_MISSING);
    dir = await mkdtemp(path.join(tmpdir(), 'orgsmith-backup-older-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    await older.close();
    await t.close();
  });

  /** Rows as the release before 0302 wrote them: local customers have no currency yet. */
  async function fillOlderDatabase(): Promise<string> {
    const key = generateLicenceKey();
    const secret = t.deps.secretKey;
    const email = 'Euro.Buyer@example.com';
    const normalized = normalizeEmailAddress(email);
    const licenceId = randomUUID();
    await older.db.execute(sql`
      insert into licences (id, type, edition, quantity, status, email, email_normalized, key_hash,
        key_hint, product_id, expires_at, customer_id, subscription_id, subscription_status)
      values (${licenceId}, 'Paid', 'Pro', 4, 'Active', ${email}, ${normalized},
        ${hashLicenceKey(secret, key)}, ${licenceKeyHint(key)}, ${siteConfig.productId},
        '2027-01-15T10:00:00Z', 'lcus_eur', 'lsub_eur', 'active')`);
    await older.db.execute(sql`
      insert into trial_claims (email_hash, first_licence_id, first_licence_type)
      values (${hashEmailAddress(secret, normalized)}, ${licenceId}, 'Paid')`);
    await older.db.execute(sql`
      insert into local_customers (id, email, email_normalized, card_brand, card_last4, card_outcome)
      values ('lcus_eur', ${email}, ${normalized}, 'Visa', '4242', 'succeeds'),
        ('lcus_none', 'no.subscription@example.com', 'no.subscription@example.com', null, null, null)`);
    await older.db.execute(sql`
      insert into local_subscriptions (id, customer_id, status, edition, quantity, billing_period,
        currency, current_period_start, current_period_end)
      values ('lsub_eur', 'lcus_eur', 'active', 'Pro', 4, 'yearly', 'EUR',
        '2026-01-15T10:00:00Z', '2027-01-15T10:00:00Z')`);
    await older.db.execute(sql`
      insert into subscriptions (provider, subscription_id, licence_id, licence_origin, customer_id,
        status, edition, quantity, billing_period, currency, current_period_end,
        cancel_at_period_end, snapshot_read_at)
      values ('local', 'lsub_eur', ${licenceId}, 'issued', 'lcus_eur', 'active', 'Pro', 4,
        'yearly', 'EUR', '2027-01-15T10:00:00Z', false, '2026-01-15T10:00:00Z')`);
    await older.db.execute(sql`
      insert into email_outbox (kind, message_id, to_address, subject, next_attempt_at, status)
      values ('licence-issued', '<older@orgsmith>', ${email}, 'Your key', now(), 'sent')`);
    return key;
  }

  it('restores at its own version, then runs the later migrations over its rows', async () => {
    const key = await fillOlderDatabase();
    const file = path.join(dir, 'older.backup.gz');
    await writeBackup(older.db, file, { database: target.name, now: t.deps.clock() });
    const header = z.object({ migrations: z.array(z.string()) }).parse(
      JSON.parse(
        gunzipSync(await readFile(file))
          .toString('utf8')
          .split('\n')[0] ?? '',
      ),
    );
    expect(header.migrations).toEqual(await migrationsBefore(FIRST_MISSING));

    // What a fresh migration does to the same rows: the older database migrated in place.
    expect((await migrate(older.db))[0]).toBe(FIRST_MISSING);
    const expected = await databaseFingerprint(older.db);

    const restore = await runAdminOn(t, 'restore', file, '--replace');
    expect(restore.err).toBe('');
    expect(restore.code).toBe(0);
    expect(restore.out).toContain(`then migrated it forward (${FIRST_MISSING}`);
    // The schema it rebuilt does not make the restored rows look like the migrations' own.
    const again = await runAdminOn(t, 'restore', file);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/^The database holds \d+ rows\./);
    expect(await databaseFingerprint(t.deps.database.db)).toEqual(expected);
    const customers = await t.deps.database.db
      .select({ id: localCustomers.id, currency: localCustomers.currency })
      .from(localCustomers)
      .orderBy(localCustomers.id);
    expect(customers).toEqual([
      { id: 'lcus_eur', currency: 'EUR' },
      { id: 'lcus_none', currency: 'USD' },
    ]);
    const ledger = await t.deps.database.db.select().from(schemaMigrations);
    expect(ledger.map((row) => row.name).sort()).toEqual(await migrationFiles());

    const answer = await postJson(t, '/account/v1/licenses/validate', {
      licenseKey: key,
      productId: siteConfig.productId,
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ valid: true, code: 'VALID' });

    // Identity sequences follow the restored rows after the forward migrations too.
    const added = await createOutboxRepository(t.deps.database.db).enqueue(
      { kind: 'after-restore', to: 'x@example.com', subject: 'S', text: 'T', html: 'H' },
      t.deps.clock(),
    );
    expect(added.id).toBeGreaterThan(1);
  });
});
