import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBackupRepository } from '#server/backup/backup-repository.ts';
import { databaseFingerprint } from '#server/backup/backup-file.ts';
import { createOutboxRepository } from '#server/email/outbox-repository.ts';
import { databaseTargets } from '../helpers/databases.ts';
import { createLicence, runAdminOn } from '../helpers/licensing.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
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

  it('backs up, wipes, restores, and every table is as it was', async () => {
    const file = path.join(dir, 'full.backup.gz');
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

describe('backup of the embedded database while a server holds it', () => {
  it('says why not, and writes nothing', async () => {
    const { spawnSync } = await import('node:child_process');
    const { openDatabase } = await import('#server/db/client.ts');
    const dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-backup-lock-'));
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
