/**
 * Backup and restore round trip for 10,000 licences (issue 13): `npm run bench:backup
 * [-- --licences 10000] [-- --older-schema] [-- --online [--skip-build]]`. Runs on an embedded
 * database in a temporary directory and, when reachable, on a throwaway PostgreSQL database
 * (BENCH_POSTGRES_URL or 127.0.0.1:5432). Prints the time to back up, the file size, the time to
 * restore, and whether every table came back. With --older-schema the backup is taken before the
 * newest migration, so the restore rebuilds that schema, loads the rows and migrates forward
 * (decision 124). With --online the production server runs on the database and
 * `npm run admin -- backup` is timed while a client validates a licence over and over (every
 * validation reads the database): the backup's time and size, and the validations' latency
 * before and during it (decision 130).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { databaseFingerprint, restoreBackup, writeBackup } from '../server/backup/backup-file.ts';
import { createBackupRepository } from '../server/backup/backup-repository.ts';
import { openDatabase, type DatabaseHandle } from '../server/platform/db/client.ts';
import { migrate, migrationFiles } from '../server/platform/db/migrate.ts';
import { issueLicence } from '../server/licensing/licences/issue-licence.ts';
import { siteConfig } from '../shared/site-config.ts';
import { buildSite, freePort, waitForOk } from './support/server.ts';

const { values: args } = parseArgs({
  options: {
    licences: { type: 'string', default: '10000' },
    'older-schema': { type: 'boolean', default: false },
    online: { type: 'boolean', default: false },
    'skip-build': { type: 'boolean', default: false },
  },
});
const count = Number(args.licences);
const adminUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const SECRET_KEY = 'bench-secret-key-bench-secret-key-0123456789';

/** Issues `count` licences; returns the key of the last one. */
async function fill(handle: DatabaseHandle): Promise<string> {
  const now = new Date();
  let key = '';
  for (let done = 0; done < count; done += 500) {
    await handle.db.transaction(async (tx) => {
      for (let n = done; n < Math.min(count, done + 500); n++) {
        const result = await issueLicence(tx, SECRET_KEY, {
          type: n % 3 === 0 ? 'Trial' : 'Paid',
          edition: n % 3 === 0 ? 'Enterprise' : 'Pro',
          quantity: 4,
          email: `customer${n}@example.com`,
          productId: siteConfig.productId,
          expiresAt: new Date(now.getTime() + 60 * 86_400_000),
          addressRule: 'any',
        });
        if (!result.ok) throw new Error(result.code);
        key = result.key;
      }
    });
  }
  return key;
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

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ??
  0;
const ms = (value: number) => `${value.toFixed(0)} ms`;

/** Validates `key` one request after another until `until` resolves; returns each latency. */
async function validateUntil(baseUrl: string, key: string, until: Promise<unknown>) {
  let done = false;
  void until.finally(() => (done = true));
  const latencies: number[] = [];
  let failed = 0;
  while (!done) {
    const started = performance.now();
    const res = await fetch(`${baseUrl}/account/v1/licenses/validate`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ licenseKey: key, productId: siteConfig.productId }),
    });
    await res.arrayBuffer();
    latencies.push(performance.now() - started);
    if (res.status !== 200) failed += 1;
  }
  return { latencies, failed };
}

/** `npm run admin -- backup <file>` as an operator runs it beside the server; its wall time. */
async function adminBackup(env: Record<string, string>, file: string) {
  const started = performance.now();
  const child = spawn(process.execPath, ['server/admin/cli.ts', 'backup', file], {
    env: { ...process.env, ...env, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  await once(child, 'exit');
  if (child.exitCode !== 0) throw new Error(`backup failed (${child.exitCode}): ${out}`);
  return { wallMs: performance.now() - started, out: out.trim() };
}

/** A backup taken by the admin command while the production server serves the database. */
async function measureOnline(name: string, handle: DatabaseHandle, env: Record<string, string>) {
  const key = await fill(handle);
  // The embedded database admits one process: the server's, from here on.
  if (handle.kind === 'pglite') await handle.close();
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['server/main.ts'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      ...env,
      NODE_ENV: 'production',
      PORT: String(port),
      PUBLIC_BASE_URL: `http://localhost:${port}`,
      SECRET_KEY,
      LOG_LEVEL: 'warn',
      // Every validation reads the database, none is refused for its rate.
      LICENSE_VALIDATION_CACHE_SECONDS: '0',
      LICENSE_VALIDATION_RATE_LIMIT: '0',
    },
  });
  try {
    await waitForOk(`${baseUrl}/readyz`, 180_000);
    const before = await validateUntil(
      baseUrl,
      key,
      new Promise((resolve) => setTimeout(resolve, 3_000)),
    );
    const file = path.join(dir, `${name.replace(/\W+/g, '-')}-online.jsonl.gz`);
    const backup = adminBackup(env, file);
    const during = await validateUntil(baseUrl, key, backup);
    const { wallMs, out } = await backup;
    const size = (await stat(file)).size;
    const inCommand = /in ([\d.]+) s/.exec(out)?.[1] ?? '?';
    console.log(
      `| ${name} | ${count} | ${(wallMs / 1000).toFixed(2)} s (${inCommand} s writing) | ${(size / 1024 / 1024).toFixed(2)} MB | ${ms(percentile(before.latencies, 0.5))} / ${ms(Math.max(...before.latencies))} | ${during.latencies.length} | ${ms(percentile(during.latencies, 0.5))} / ${ms(Math.max(...during.latencies))} | ${during.failed + before.failed} |`,
    );
  } finally {
    server.kill('SIGTERM');
    await once(server, 'exit');
  }
}

if (args.online && !args['skip-build']) buildSite();
const dir = await mkdtemp(path.join(tmpdir(), 'orgsmith-bench-backup-'));
console.log(
  `load average ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
);
if (args.online) {
  console.log(
    '| database | licences | backup while serving (command) | file (gzip) | validation p50 / max before | validations during | p50 / max during | failed |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
} else {
  console.log('| database | licences | rows | backup | file (gzip) | restore | identical |');
  console.log('|---|---|---|---|---|---|---|');
}
try {
  const dataDir = path.join(dir, 'data');
  const embedded = await openDatabase({ dataDir });
  try {
    if (args.online) await measureOnline('embedded (PGlite)', embedded, { DATA_DIR: dataDir });
    else await measure('embedded (PGlite)', embedded, dir);
  } finally {
    await embedded.close().catch(() => undefined);
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
      if (args.online) {
        await measureOnline('PostgreSQL', postgres, {
          DATABASE_URL: url.toString(),
          DATA_DIR: path.join(dir, 'pg-data'),
        });
      } else await measure('PostgreSQL', postgres, dir);
    } finally {
      await postgres.close().catch(() => undefined);
      await admin.query(`drop database if exists ${name} with (force)`);
    }
  }
  await admin.end().catch(() => undefined);
} finally {
  await rm(dir, { recursive: true, force: true });
}
