import { createHash, randomBytes } from 'node:crypto';
import { cp, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import {
  openDatabase,
  PGLITE_SHARED_BUFFERS,
  type DatabaseHandle,
} from '#server/platform/db/client.ts';
import type { Database } from '#server/platform/db/database.ts';
import { attributed } from '#server/platform/db/audit-settings.ts';
import { migrate, migrationFiles } from '#server/platform/db/migrate.ts';
import * as schema from '#server/platform/db/schema.ts';

const adminUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabaseTarget {
  name: 'pglite' | 'postgres';
  /** Opens a fresh, migrated, empty database; `close` drops it again. */
  open(): Promise<DatabaseHandle>;
}

/*
 * Migrated templates (decision 162). Migrating is cheap; making an empty database is not (PGlite
 * runs initdb, ~2 s of CPU, for every in-memory instance). So each engine's empty, migrated
 * database is made once and copied for every test: PostgreSQL `create database … template`,
 * PGlite a dump of its data directory loaded with `loadDataDir`. Both are keyed on the names and
 * contents of this code's migrations (and PGlite's version), so a changed, added or removed
 * migration file makes a new template, and `open` still runs `migrate` over the copy, which finds
 * nothing pending: a test database is exactly what migrating a fresh one gives.
 */
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const migrationsDir = path.join(repoRoot, 'server', 'platform', 'db', 'migrations');
const templateCacheDir = path.join(repoRoot, 'node_modules', '.cache', 'orgsmith-test-databases');

/** The first 16 hex digits of a hash of every migration file's name and contents. */
export async function migrationsHash(directory = migrationsDir): Promise<string> {
  const hash = createHash('sha256');
  for (const file of await migrationFiles(directory)) {
    hash.update(`${file}\0`);
    hash.update(
      createHash('sha256')
        .update(await readFile(path.join(directory, file)))
        .digest(),
    );
  }
  return hash.digest('hex').slice(0, 16);
}

async function pgliteVersion(): Promise<string> {
  const manifest = path.join(repoRoot, 'node_modules', '@electric-sql', 'pglite', 'package.json');
  const parsed: unknown = JSON.parse(await readFile(manifest, 'utf8'));
  const version = typeof parsed === 'object' && parsed ? Reflect.get(parsed, 'version') : undefined;
  return typeof version === 'string' ? version : 'unknown';
}

/**
 * PGlite as `openDatabase` starts it (same start parameters), from `loadDataDir`: in memory, or in
 * `dataDir` on disk.
 */
async function createPglite(loadDataDir?: Blob, dataDir?: string) {
  const { PGlite } = await import('@electric-sql/pglite');
  return PGlite.create({
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
    ...(loadDataDir ? { loadDataDir } : {}),
    ...(dataDir ? { dataDir } : {}),
  });
}

let pgliteTemplate: Promise<Blob> | undefined;

/**
 * The data directory of a freshly migrated PGlite, as an uncompressed tarball; kept under
 * node_modules/.cache for the other test files and workers (written whole, then renamed).
 */
function pgliteTemplateDump(): Promise<Blob> {
  pgliteTemplate ??= (async () => {
    const file = path.join(
      templateCacheDir,
      `pglite-${await pgliteVersion()}-${await migrationsHash()}-checkpointed.tar`,
    );
    const stored = await readFile(file).catch(() => undefined);
    if (stored) return new Blob([stored]);
    const { drizzle } = await import('drizzle-orm/pglite');
    const client = await createPglite();
    try {
      await migrate(drizzle(client, { schema }));
      // Sequences log 32 values ahead: without a checkpoint, opening the dump replays that log
      // and the next id would be 33 instead of 3. After one, the pages hold the real values.
      await client.exec('checkpoint');
      const dump = await client.dumpDataDir('none');
      await mkdir(templateCacheDir, { recursive: true });
      const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
      await writeFile(partial, new Uint8Array(await dump.arrayBuffer()));
      await rename(partial, file);
      return dump;
    } finally {
      await client.close();
    }
  })();
  pgliteTemplate.catch(() => {
    pgliteTemplate = undefined;
  });
  return pgliteTemplate;
}

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );
let embeddedTemplate: Promise<string> | undefined;

/**
 * The PGlite template as a server keeps its embedded database on disk (`$DATA_DIR/pglite`): the
 * dump loaded into a directory once and kept beside it (made under another name, then renamed).
 */
function embeddedTemplateDir(): Promise<string> {
  embeddedTemplate ??= (async () => {
    const dir = path.join(
      templateCacheDir,
      `pglite-${await pgliteVersion()}-${await migrationsHash()}-data-dir`,
    );
    if (await exists(dir)) return dir;
    const partial = `${dir}.${process.pid}.${randomBytes(4).toString('hex')}`;
    const client = await createPglite(await pgliteTemplateDump(), partial);
    await client.close();
    try {
      await rename(partial, dir);
    } catch (error) {
      // Another process made it first: theirs is the same database.
      if (!(await exists(dir))) throw error;
      await rm(partial, { recursive: true, force: true });
    }
    return dir;
  })();
  embeddedTemplate.catch(() => {
    embeddedTemplate = undefined;
  });
  return embeddedTemplate;
}

/**
 * Gives the existing `dataDir` of a server about to start on its embedded database a copy of the
 * migrated template, unless it has a database already: the server then opens it and finds no
 * migration pending, instead of running initdb and every migration (about 5 s of CPU per start,
 * decision 201). A test about what a first start writes (file modes, a directory the server
 * creates) starts on an empty directory instead.
 */
export async function seedEmbeddedDatabase(dataDir: string): Promise<void> {
  const target = path.join(dataDir, 'pglite');
  if (!(await exists(dataDir)) || (await exists(target))) return;
  await cp(await embeddedTemplateDir(), target, { recursive: true });
}

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const pgliteTarget: TestDatabaseTarget = {
  name: 'pglite',
  async open() {
    const { drizzle } = await import('drizzle-orm/pglite');
    const client = await createPglite(await pgliteTemplateDump());
    const db: Database = attributed(drizzle(client, { schema }));
    // Nothing is pending on the template's copy; run anyway, as `openDatabase` does.
    await migrate(db);
    return {
      db,
      kind: 'pglite',
      async listen(channel, handler) {
        const unlisten = await client.listen(channel, (payload) => handler(payload));
        return () => unlisten();
      },
      close: () => client.close(),
    };
  },
};

function databaseUrl(dbName: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  return url.toString();
}

/** Any constant: one process at a time builds (or tidies) the PostgreSQL templates. */
const TEMPLATE_LOCK_ID = 724_162;
const templatePrefix = 'orgsmith_template_';
/** Templates of other migration sets kept (other checkouts testing at the same time use them). */
const TEMPLATES_KEPT = 8;
let postgresTemplate: Promise<string> | undefined;

/**
 * The name of the PostgreSQL template database for this code's migrations, made on first use and
 * kept on the server for later runs. Nobody may connect to it (`allow_connections false`), so a
 * copy of it never fails because someone is using it.
 */
function postgresTemplateName(): Promise<string> {
  postgresTemplate ??= (async () => {
    const name = `${templatePrefix}${await migrationsHash()}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK_ID]);
      const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (found.rowCount) return name;
      // Built under another name and renamed when complete: a run killed midway leaves no template.
      const building = `${name}_building`;
      await admin.query(`drop database if exists ${building} with (force)`);
      await admin.query(`create database ${building}`);
      const client = new pg.Client({ connectionString: databaseUrl(building) });
      await client.connect();
      try {
        await migrate(drizzlePg(client, { schema }));
      } finally {
        await client.end();
      }
      await admin.query(`alter database ${building} allow_connections false`);
      // The builder's session may still be ending on the server: the rename waits for it.
      for (let attempt = 0; ; attempt += 1) {
        try {
          await admin.query(`alter database ${building} rename to ${name}`);
          break;
        } catch (error) {
          if (attempt >= 50 || Reflect.get(Object(error), 'code') !== '55006') throw error;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      const old = await admin.query<{ datname: string }>(
        `select datname from pg_database where datname like $1 and datname <> $2 order by oid desc offset $3`,
        [`${templatePrefix}%`, name, TEMPLATES_KEPT],
      );
      for (const { datname } of old.rows) {
        await admin.query(`drop database if exists ${datname} with (force)`);
      }
      return name;
    } finally {
      await admin.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK_ID]).catch(() => undefined);
      await admin.end();
    }
  })();
  postgresTemplate.catch(() => {
    postgresTemplate = undefined;
  });
  return postgresTemplate;
}

/**
 * A fresh PostgreSQL database on the test server, empty or a copy of `template`; `drop()` removes
 * it again.
 */
export async function createScratchDatabase(
  prefix = 'orgsmith_test',
  options: { template?: string } = {},
): Promise<{ url: string; drop(): Promise<void> }> {
  const dbName = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(
    options.template
      ? `create database ${dbName} template ${options.template}`
      : `create database ${dbName}`,
  );
  await admin.end();
  const url = databaseUrl(dbName);
  return {
    url,
    async drop() {
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${dbName} with (force)`);
      await dropper.end();
    },
  };
}

const postgresTarget: TestDatabaseTarget = {
  name: 'postgres',
  async open() {
    const scratch = await createScratchDatabase('orgsmith_test', {
      template: await postgresTemplateName(),
    });
    // Migrates what the template lacks: nothing, since the template is keyed on the migrations.
    // No time limits (decision 237): tests seed in bulk on a shared, loaded machine, where a
    // 100,000-row insert once outlasted the 30 s default; client.test.ts tests the limits.
    const handle = await openDatabase({
      databaseUrl: scratch.url,
      timeouts: { statementTimeoutMs: 0, idleInTransactionTimeoutMs: 0 },
    });
    return {
      ...handle,
      async close() {
        await handle.close();
        await scratch.drop();
      },
    };
  },
};

/**
 * The databases repository tests run on: PGlite always; PostgreSQL when reachable, and always in
 * CI (where an unreachable server fails the run instead of silently skipping).
 */
export async function testDatabaseTargets(): Promise<TestDatabaseTarget[]> {
  if (await postgresReachable()) return [pgliteTarget, postgresTarget];
  if (process.env.CI)
    throw new Error(`PostgreSQL is required in CI but ${adminUrl} is unreachable`);
  return [pgliteTarget];
}

export const databaseTargets = await testDatabaseTargets();
