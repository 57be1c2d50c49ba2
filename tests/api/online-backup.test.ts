import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runAdmin } from '#server/admin/run-admin.ts';
import { databaseFingerprint } from '#server/backup/backup-file.ts';
import { adminSocketPath } from '#server/platform/data-dir/admin-socket-path.ts';
import { backupScheduleJob } from '#server/backup/schedule-backups.ts';
import { createJobRunRepository } from '#server/platform/jobs/job-run-repository.ts';
import { startJobs } from '#server/platform/jobs/start-jobs.ts';
import { startAdminSocket } from '#server/admin/serve-admin-socket.ts';
import { createBackupTaker } from '#server/backup/take-backup.ts';
import type { DatabaseHandle } from '#server/platform/db/client.ts';
import type { Database } from '#server/platform/db/database.ts';
import { openDatabase } from '#server/platform/db/client.ts';
import { createLogger } from '#server/platform/logger.ts';
import { createScratchDatabase, databaseTargets } from '../support/databases.ts';
import { forAnotherUser, NOBODY } from '../support/another-user.ts';
import { createLicence } from '../support/licensing.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { requestTrial } from './account-support.ts';

/**
 * Issue 18, item 1 (decision 130): a backup of the embedded database while the server runs,
 * through its local socket; scheduled backups with rotation; the newest backup's age in /readyz.
 */
const modeOf = async (file: string) => (await stat(file)).mode & 0o777;
const pglite = databaseTargets.find((target) => target.name === 'pglite');
if (!pglite) throw new Error('PGlite target missing');

/** An operator command as `npm run admin --` runs it: no database given, DATA_DIR set. */
async function admin(argv: string[], options: { dataDir: string; cwd: string }) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdmin(argv, {
    io: { out: (line) => out.push(line), err: (line) => err.push(line) },
    environment: { DATA_DIR: options.dataDir, LOG_LEVEL: 'silent' },
    cwd: options.cwd,
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** Sends raw bytes to the socket and returns what the server answers before closing. */
function rawRequest(socketPath: string, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(socketPath);
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(bytes));
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

const answerSchema = z.object({ ok: z.boolean(), error: z.string().optional() });

/** Every file under `dir`, recursively, to show that a refused request wrote nothing. */
async function listing(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).sort();
}

describe('a backup of the embedded database while the server runs', () => {
  let t: TestApp;
  let dataDir: string;
  let outDir: string;
  let socket: ReturnType<typeof startAdminSocket>;
  beforeAll(async () => {
    t = await createTestApp(pglite);
    expect(
      (await requestTrial(t, { emailAddress: 'online@example.com', productId: 'orgsmith-cli' }))
        .status,
    ).toBe(204);
    await createLicence(t, { email: 'paid.online@example.com' });
    dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-online-'));
    // The database's own directory, as the server's data-dir lock creates it.
    await mkdir(path.join(dataDir, 'pglite'));
    outDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-online-out-'));
    const taker = createBackupTaker({
      db: t.deps.database.db,
      kind: 'pglite',
      clock: t.deps.clock,
      dataDir,
    });
    socket = startAdminSocket({ dataDir, taker, logger: createLogger('silent') });
    expect(await socket.ready).toBe(true);
  });
  afterAll(async () => {
    await socket.stop();
    await rm(dataDir, { recursive: true, force: true });
    await rm(outDir, { recursive: true, force: true });
    await t.close();
  });

  it('the admin command asks the server, which writes the file 0600 from one snapshot', async () => {
    // A relative path is the operator's: resolved against the directory they run the command in.
    const result = await admin(['backup', 'live.jsonl.gz'], { dataDir, cwd: outDir });
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    const file = path.join(outDir, 'live.jsonl.gz');
    expect(result.out).toMatch(
      new RegExp(
        `^Backed up \\d+ rows of \\d+ tables to ${file} .* written by the running server\\.$`,
      ),
    );
    expect(await modeOf(file)).toBe(0o600);

    const fresh = await pglite.open();
    try {
      const restore = await runAdmin(['restore', file], {
        io: { out: () => undefined, err: (line) => expect(line).toBe('') },
        environment: { LOG_LEVEL: 'silent' },
        openDatabase: async () => ({ ...fresh, close: async () => undefined }),
      });
      expect(restore).toBe(0);
      const restored = await databaseFingerprint(fresh.db);
      const live = await databaseFingerprint(t.deps.database.db);
      // The live database has since recorded the backup's time; every other table is the same.
      expect({ ...restored, app_state: undefined }).toEqual({ ...live, app_state: undefined });
    } finally {
      await fresh.close();
    }
  });

  it('listens only on a 0600 socket in a 0700 directory of the data directory', async () => {
    const socketPath = adminSocketPath(dataDir);
    expect(socketPath).toBe(path.join(dataDir, 'run', 'admin.sock'));
    expect((await stat(socketPath)).isSocket()).toBe(true);
    expect(await modeOf(socketPath)).toBe(0o600);
    expect(await modeOf(path.dirname(socketPath))).toBe(0o700);
  });

  it.runIf(process.getuid?.() === 0)('refuses another user at the socket', async () => {
    // The data directory open to all, as an operator might leave it: the socket's own directory
    // still keeps everyone else out.
    await chmod(dataDir, 0o755);
    const file = path.join(outDir, 'by-nobody.jsonl.gz');
    const socketPath = adminSocketPath(dataDir);
    // First that `nobody` reaches the socket's directory (so a refusal is the socket's own), then
    // the connection itself.
    const script = `console.log(require('node:fs').existsSync(${JSON.stringify(path.dirname(socketPath))}) ? 'sees run/' : 'no run/');
      const s = require('node:net').createConnection(${JSON.stringify(socketPath)});
      s.on('connect', () => { s.write(JSON.stringify({ command: 'backup', file: ${JSON.stringify(file)} }) + '\\n'); console.log('connected'); });
      s.on('error', (e) => { console.log(e.code); process.exit(0); });`;
    const nobodysNode = await forAnotherUser();
    try {
      const nobody = spawnSync(nobodysNode.node, ['-e', script], {
        uid: NOBODY,
        gid: NOBODY,
        cwd: nobodysNode.dir,
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(nobody.stderr).toBe('');
      expect(nobody.stdout.trim().split('\n')).toEqual(['sees run/', 'EACCES']);
    } finally {
      await nobodysNode.remove();
    }
    await expect(stat(file)).rejects.toThrow();
  });

  it('answers every bad request with a clear error and writes nothing', async () => {
    const socketPath = adminSocketPath(dataDir);
    await mkdir(path.join(outDir, 'a-directory'));
    await symlink(path.join(dataDir, 'pglite'), path.join(outDir, 'link-to-database'));
    const before = { out: await listing(outDir), data: await listing(dataDir) };
    const request = (file: string) => `${JSON.stringify({ command: 'backup', file })}\n`;
    const cases: Array<[string, RegExp]> = [
      ['not json\n', /^The request is not JSON\.$/],
      [
        '{"command":"restore","file":"/tmp/x.jsonl.gz"}\n',
        /^The request is not \{"command":"backup"/,
      ],
      [
        `{"command":"backup","file":"${outDir}/x.jsonl.gz","mode":"0644"}\n`,
        /^The request is not \{"command":"backup"/,
      ],
      [request(`${outDir}/x\u0000.jsonl.gz`), /^The request is not \{"command":"backup"/],
      [request('relative.jsonl.gz'), /^The backup path must be absolute: relative\.jsonl\.gz\./],
      [
        request(path.join(outDir, 'missing', 'x.jsonl.gz')),
        /^No such directory: .*missing\. Create it first; nothing was written\.$/,
      ],
      [
        request(path.join(dataDir, 'pglite', 'PG_VERSION')),
        /is inside .*pglite, where the database lives: write backups elsewhere\./,
      ],
      [
        request(path.join(outDir, 'link-to-database', 'base.jsonl.gz')),
        /is inside .*pglite, where the database lives/,
      ],
      [request(path.join(dataDir, 'run', 'x.jsonl.gz')), /where the database lives/],
      [request(path.join(outDir, 'a-directory')), /is a directory: name the file to write\./],
      [`{"command":"backup","file":"/${'a'.repeat(5000)}"}\n`, /^The request is too long\.$/],
      ['x'.repeat(10_000), /^The request is too long\.$/],
    ];
    for (const [bytes, expected] of cases) {
      const answer = answerSchema.parse(JSON.parse(await rawRequest(socketPath, bytes)));
      expect(answer.ok, bytes.slice(0, 80)).toBe(false);
      expect(answer.error, bytes.slice(0, 80)).toMatch(expected);
    }
    expect({ out: await listing(outDir), data: await listing(dataDir) }).toEqual(before);
  });

  it('closes a connection that sends no request within 5 s', async () => {
    const started = Date.now();
    const answer = answerSchema.parse(
      JSON.parse(await rawRequest(adminSocketPath(dataDir), '{"command":')),
    );
    expect(answer).toEqual({ ok: false, error: 'No request arrived in time.' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_900);
  });

  it('the admin command names a missing directory, and writes nothing', async () => {
    const result = await admin(['backup', 'missing/x.jsonl.gz'], { dataDir, cwd: outDir });
    expect(result.code).toBe(1);
    expect(result.out).toBe('');
    expect(result.err).toBe(
      `No such directory: ${path.join(outDir, 'missing')}. Create it first; nothing was written.`,
    );
  });

  it('writes requests that arrive together one after another, each complete', async () => {
    const requests = Array.from({ length: 4 }, (_, n) =>
      rawRequest(
        adminSocketPath(dataDir),
        `${JSON.stringify({ command: 'backup', file: path.join(outDir, `together-${n}.jsonl.gz`) })}\n`,
      ),
    );
    const answers = (await Promise.all(requests)).map((text) =>
      answerSchema.parse(JSON.parse(text)),
    );
    expect(answers.every((answer) => answer.ok)).toBe(true);
    for (let n = 0; n < 4; n++) {
      expect(await modeOf(path.join(outDir, `together-${n}.jsonl.gz`))).toBe(0o600);
    }
  });
});

describe('the backup queue', () => {
  it('never reads the database for two backups at once', async () => {
    const t = await createTestApp(pglite);
    const dir = await mkdtemp(path.join(tmpdir(), 'orgsmith-queue-'));
    try {
      let active = 0;
      let most = 0;
      const real = t.deps.database.db;
      // The real database, with its transactions counted as they start and end.
      const counted = new Proxy(real, {
        get(target, property, receiver): unknown {
          if (property !== 'transaction') return Reflect.get(target, property, receiver);
          return async (...args: Parameters<Database['transaction']>) => {
            active += 1;
            most = Math.max(most, active);
            try {
              return await target.transaction(...args);
            } finally {
              active -= 1;
            }
          };
        },
      });
      const taker = createBackupTaker({
        db: counted,
        kind: 'pglite',
        clock: t.deps.clock,
        dataDir: dir,
      });
      const taken = await Promise.all(
        [0, 1, 2, 3].map((n) => taker.take(path.join(dir, `queued-${n}.jsonl.gz`))),
      );
      // Each later one also holds the record of the one before (app_state): they ran in turn.
      const first = taken[0]?.rows ?? 0;
      expect(taken.map((backup) => backup.rows)).toEqual([first, first + 1, first + 1, first + 1]);
      expect(most).toBe(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
      await t.close();
    }
  });
});

/** A logger that keeps every line, to see what the schedule did. */
function recordingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino(
    { level: 'info' },
    {
      write: (line: string) =>
        lines.push(z.record(z.string(), z.unknown()).parse(JSON.parse(line))),
    },
  );
  return {
    logger,
    lines,
    written: () => lines.filter((l) => l.msg === 'scheduled backup written'),
  };
}

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const SCHEDULED = /^orgsmith-\d{8}T\d{6}Z\.jsonl\.gz$/;

/** The scheduled-backup job on the job runner, as `startWorkers()` runs it; returns the stopper. */
function startBackupSchedule(
  options: Parameters<typeof backupScheduleJob>[0] & { db: Database },
): () => Promise<void> {
  const runner = startJobs([backupScheduleJob(options)], {
    db: options.db,
    logger: options.logger,
    clock: options.clock,
  });
  return () => runner.stop();
}

describe.each(databaseTargets)('scheduled backups on $name', (target) => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'orgsmith-scheduled-'));
    t = await createTestApp(target, {
      env: { BACKUP_DIR: path.join(dir, 'backups'), BACKUP_EVERY: '1s', BACKUP_KEEP: '2' },
      now: new Date(),
    });
    await createLicence(t, { email: 'scheduled@example.com' });
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    await t.close();
  });

  it('reports no backup yet, and overdue only after twice the interval', async () => {
    const since = t.deps.clock();
    const ready = await t.app.request('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: 'ready',
      backup: { newestAgeSeconds: null, everySeconds: 1, overdue: false },
    });
    t.setNow(new Date(since.getTime() + 2_500));
    const late = await t.app.request('/readyz');
    // Overdue is reported, never a reason to take the instance out of the balancer.
    expect(late.status).toBe(200);
    expect(await late.json()).toMatchObject({
      status: 'ready',
      backup: { newestAgeSeconds: null, everySeconds: 1, overdue: true },
    });
  });

  it('writes one every interval, 0600, keeps the newest KEEP, and /readyz shows the age', async () => {
    const { logger, written } = recordingLogger();
    const env = t.deps.env;
    const taker = createBackupTaker({
      db: t.deps.database.db,
      kind: target.name,
      clock: () => new Date(),
      dataDir: path.join(dir, 'data'),
    });
    const stop = startBackupSchedule({
      db: t.deps.database.db,
      taker,
      dir: env.BACKUP_DIR ?? '',
      everyMs: env.BACKUP_EVERY ?? 0,
      keep: env.BACKUP_KEEP,
      clock: () => new Date(),
      logger,
    });
    try {
      await until(() => written().length >= 4, 60_000);
    } finally {
      await stop();
    }
    const backupDir = path.join(dir, 'backups');
    const files = (await readdir(backupDir)).sort();
    const names = written().map((line) => path.basename(z.string().parse(line.file)));
    expect(files).toEqual(names.slice(-2));
    expect(files.every((name) => SCHEDULED.test(name))).toBe(true);
    for (const name of files) expect(await modeOf(path.join(backupDir, name))).toBe(0o600);
    expect(await modeOf(backupDir)).toBe(0o700);
    const deleted = written().flatMap((line) => z.array(z.string()).parse(line.deleted));
    expect(deleted).toEqual(names.slice(0, -2));

    t.setNow(new Date());
    const ready = await t.app.request('/readyz');
    const body = z
      .object({
        backup: z.object({ newestAgeSeconds: z.number(), everySeconds: z.number() }),
      })
      .parse(await ready.json());
    expect(ready.status).toBe(200);
    expect(body.backup.newestAgeSeconds).toBeLessThanOrEqual(3);
    expect(body.backup.everySeconds).toBe(1);
  });

  it('records a failed backup and tries again within the minute, and says so', async () => {
    const blocker = path.join(dir, 'a-file');
    await writeFile(blocker, 'not a directory');
    const { logger, lines } = recordingLogger();
    const runs = createJobRunRepository(t.deps.database.db);
    // The schedule's earlier runs in this file made it due an interval after them.
    await runs.dueNow('scheduled-backup');
    const stop = startBackupSchedule({
      db: t.deps.database.db,
      taker: createBackupTaker({
        db: t.deps.database.db,
        kind: target.name,
        clock: () => new Date(),
        dataDir: path.join(dir, 'data'),
      }),
      dir: path.join(blocker, 'backups'),
      everyMs: 3_600_000,
      keep: 2,
      clock: () => new Date(),
      logger,
    });
    try {
      await until(
        () => lines.some((l) => l.msg === 'scheduled backup failed; trying again'),
        30_000,
      );
    } finally {
      await stop();
    }
    const [row] = (await runs.list()).filter((run) => run.name === 'scheduled-backup');
    expect(row?.lastError).toMatch(/ENOTDIR|EEXIST|not a directory/);
    expect(row?.leasedUntil).toBeNull();
    // Due again within a minute, not an hour (the interval) later.
    expect(row!.nextRunAt.getTime() - row!.lastFinishedAt!.getTime()).toBe(60_000);
  });
});

describe.runIf(databaseTargets.some((target) => target.name === 'postgres'))(
  'two instances scheduled on one PostgreSQL',
  () => {
    it('take each scheduled backup once between them', async () => {
      const scratch = await createScratchDatabase();
      const dirs = [
        await mkdtemp(path.join(tmpdir(), 'orgsmith-one-')),
        await mkdtemp(path.join(tmpdir(), 'orgsmith-two-')),
      ];
      const handles: DatabaseHandle[] = [];
      const stoppers: Array<() => Promise<void>> = [];
      const { logger, written } = recordingLogger();
      try {
        for (const dir of dirs) {
          const handle = await openDatabase({ databaseUrl: scratch.url });
          handles.push(handle);
          const clock = () => new Date();
          stoppers.push(
            startBackupSchedule({
              db: handle.db,
              taker: createBackupTaker({ db: handle.db, kind: 'postgres', clock, dataDir: dir }),
              dir,
              everyMs: 1_000,
              keep: 100,
              clock,
              logger,
            }),
          );
        }
        await until(() => written().length >= 5, 60_000);
      } finally {
        await Promise.all(stoppers.map((stop) => stop()));
        await Promise.all(handles.map((handle) => handle.close()));
      }
      const times = (await Promise.all(dirs.map((dir) => readdir(dir))))
        .flat()
        .filter((name) => SCHEDULED.test(name))
        .map((name) => {
          const stamp = name.slice('orgsmith-'.length, -'.jsonl.gz'.length);
          return Date.parse(
            stamp.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z'),
          );
        })
        .sort((a, b) => a - b);
      expect(times.length).toBe(written().length);
      // Never two within one interval: claims are at least 1 s apart, so their seconds differ.
      for (let n = 1; n < times.length; n++) {
        expect((times[n] ?? 0) - (times[n - 1] ?? 0)).toBeGreaterThanOrEqual(1_000);
      }
      await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
      await scratch.drop();
    });
  },
);
