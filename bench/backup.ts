/**
 * Backup and restore round trip for 10,000 licences (issue 13): `npm run bench:backup
 * [-- --licences 10000] [-- --older-schema]`. Runs on an embedded database in a temporary
 * directory and, when reachable, on a throwaway PostgreSQL database (BENCH_POSTGRES_URL or
 * 127.0.0.1:5432). Prints the time to back up, the file size, the time to restore, and whether
 * every table came back. With --older-schema the backup is taken before the newest migration, so
 * the restore rebuilds that schema, loads the rows and migrates forward (decision 124).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { databaseFingerprint, restoreBackup, writeBackup } from '../server/backup/backup-file.ts';
import { createBackupRepository } from '../server/backup/backup-repository.ts';
import { openDatabase, type DatabaseHandle } from '../server/db/client.ts';
import { migrate, migrationFiles } from '../server/db/migrate.ts';
import { issueLicence } from '../server/licences/issue-licence.ts';
import { siteConfig } from '../shared/site-config.ts';

const { values: args } = parseArgs({
  options: {
    licences: { type: 'string', default: '10000' },
    'older-schema': { type: 'boolean', default: false },
  },
});
const count = Number(args.licences);
const adminUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function fill(handle: DatabaseHandle): Promise<void> {
  const now = new Date();
  for (let done = 0; done < count; done += 500) {
    await handle.db.transaction(async (tx) => {
      for (let n = done; n < Math.min(count, done + 500); n++) {
        const result = await issueLicence(tx, 'bench-secret-key-bench-secret-key-0123456789', {
          type: n % 3 === 0 ? 'Trial' : 'Paid',
          edition: n % 3 === 0 ? 'Enterprise' : 'Pro',
          quantity: 4,
          email: `customer${n}@example.com`,
          productId: siteConfig.productId,
          expiresAt: new Date(now.getTime() + 60 * 86_400_000),
          addressRule: 'any',
        });
        if (!result.ok) throw new Error(result.code);
      }
    });
  }
}

/** Takes the database back to the schema before the newest migration (an older release's). */
async function rewindSchema(handle: DatabaseHandle): Promise<void> {
  await handle.db.execute(sql`drop schema public cascade`);
  await handle.db.execute(sql`create schema public`);
  await migrate(handle.db, { only: new Set((await migrationFiles()).slice(0, -1)) });
}

async function measure(name: string, handle: DatabaseHandle, dir: string) {
  if (args['older-schema']) await rewindSchema(handle);
  await fill(handle);
  const file = path.join(dir, `${name}.backup.gz`);
  let started = performance.now();
  const summary = await writeBackup(handle.db, file, { database: handle.kind, now: new Date() });
  const backupMs = performance.now() - started;
  // What the restore must give: the backed-up rows as the later migrations leave them.
  await migrate(handle.db);
  const before = await databaseFingerprint(handle.db);
  const repository = createBackupRepository(handle.db);
  await repository.truncateAll(
    (await repository.tables()).filter((t) => t.name !== 'schema_migrations'),
  );
  started = performance.now();
  await restoreBackup(handle.db, file);
  const restoreMs = performance.now() - started;
  const identical = isDeepStrictEqual(await databaseFingerprint(handle.db), before);
  const size = (await stat(file)).size;
  console.log(
    `| ${name}${args['older-schema'] ? ', from the older schema' : ''} | ${count} | ${summary.rows} | ${(backupMs / 1000).toFixed(2)} s | ${(size / 1024 / 1024).toFixed(2)} MB | ${(restoreMs / 1000).toFixed(2)} s | ${identical ? 'yes' : 'NO'} |`,
  );
}

const dir = await mkdtemp(path.join(tmpdir(), 'orgsmith-bench-backup-'));
console.log(
  `load average ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
);
console.log('| database | licences | rows | backup | file (gzip) | restore | identical |');
console.log('|---|---|---|---|---|---|---|');
try {
  const embedded = await openDatabase({ dataDir: path.join(dir, 'data') });
  try {
    await measure('embedded (PGlite)', embedded, dir);
  } finally {
    await embedded.close();
  }
  const name = `orgsmith_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 1500 });
  const reachable = await admin.connect().then(
    () => true,
    () => false,
  );
  if (reachable) {
    await admin.query(`create database ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const postgres = await openDatabase({ databaseUrl: url.toString() });
    try {
      await measure('PostgreSQL', postgres, dir);
    } finally {
      await postgres.close();
      await admin.query(`drop database if exists ${name} with (force)`);
    }
  }
  await admin.end().catch(() => undefined);
} finally {
  await rm(dir, { recursive: true, force: true });
}
