import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { guardedFs, lockDataDir, ownerStillRuns } from './data-dir-lock.ts';

const STALE_MS = 2_000;
const LOCK = 'orgsmith-lock';
const OWNER = 'orgsmith-lock.owner';
const DEAD_PID = '999999999';
/** What the owner file says of this process: its pid and when it started (Linux). */
const THIS_OWNER = new RegExp(`^${process.pid} \\d+$`);
/** When this process started, as /proc/self/stat says (field 22). */
async function ownStartTime(): Promise<string> {
  const text = await readFile('/proc/self/stat', 'utf8');
  return text.slice(text.lastIndexOf(')') + 2).split(' ')[19] ?? '';
}

const children: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'orgsmith-lock-'));
  dirs.push(dir);
  return dir;
}

/** Another process that takes the lock, says `locked` or `refused`, and holds on until killed. */
function holder(dir: string): { child: ChildProcess; said: Promise<string> } {
  const script = `
    import { lockDataDir } from './server/platform/db/data-dir-lock.ts';
    try {
      await lockDataDir(process.env.LOCK_DIR, { staleMs: ${STALE_MS} });
      console.log('locked');
      setInterval(() => undefined, 1000);
    } catch (error) {
      console.log('refused');
    }`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, LOCK_DIR: dir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const said = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const word = out.match(/locked|refused/)?.[0];
      if (word) resolve(word);
    });
    child.on('exit', () => reject(new Error(`holder exited without a word: ${out}`)));
  });
  return { child, said };
}

/** A lock as a process killed long ago left it: not refreshed for longer than the stale period. */
async function staleLock(dir: string, ownerPid: string): Promise<void> {
  await mkdir(path.join(dir, LOCK));
  await writeFile(path.join(dir, OWNER), ownerPid);
  const old = new Date(Date.now() - 10 * STALE_MS);
  await utimes(path.join(dir, LOCK), old, old);
}

describe('lockDataDir', () => {
  it('keeps a second process out while the first runs, past the stale period, then lets it in', async () => {
    const dir = await tempDir();
    const first = holder(dir);
    expect(await first.said).toBe('locked');
    const pid = first.child.pid ?? 0;
    await expect(lockDataDir(dir, { staleMs: STALE_MS })).rejects.toThrow(
      `The embedded database in DATA_DIR ${dir} is in use by process ${pid}. Stop that process first, or use DATABASE_URL to share a PostgreSQL server.`,
    );
    // The owner refreshes its lock: still held after twice the stale period.
    await new Promise((resolve) => setTimeout(resolve, 2 * STALE_MS));
    await expect(lockDataDir(dir, { staleMs: STALE_MS })).rejects.toThrow(
      `is in use by process ${pid}`,
    );
    first.child.kill('SIGTERM');
    await once(first.child, 'exit');
    const unlock = await lockDataDir(dir, { staleMs: STALE_MS });
    expect(await readFile(path.join(dir, OWNER), 'utf8')).toMatch(THIS_OWNER);
    await unlock();
  });

  it('keeps a second owner out within one process too', async () => {
    const dir = await tempDir();
    const unlock = await lockDataDir(dir, { staleMs: STALE_MS });
    await expect(lockDataDir(dir, { staleMs: STALE_MS })).rejects.toThrow(
      `is in use by process ${process.pid}`,
    );
    await unlock();
    const again = await lockDataDir(dir, { staleMs: STALE_MS });
    await again();
  });

  it('takes over the lock of a process killed with -9 once it went stale, without help', async () => {
    const dir = await tempDir();
    const first = holder(dir);
    expect(await first.said).toBe('locked');
    first.child.kill('SIGKILL');
    await once(first.child, 'exit');
    // The dead owner's last refresh: nobody may take the lock before it has been stale that long.
    const lastRefresh = (await stat(path.join(dir, LOCK))).mtimeMs;
    const started = Date.now();
    const unlock = await lockDataDir(dir, { staleMs: STALE_MS });
    const takenAt = Date.now();
    // Measured from the lock's own mtime, not from the kill: on a loaded machine the owner may
    // have missed refreshes before it died, so the wait after the kill can be short.
    expect(takenAt - lastRefresh).toBeGreaterThanOrEqual(STALE_MS - 50);
    expect(takenAt - started).toBeLessThan(3 * STALE_MS);
    await unlock();
  });

  it('takes over a stale lock at once even when its pid now belongs to a live process', async () => {
    const dir = await tempDir();
    // The pid was reused: the parent of this test runner is alive.
    await staleLock(dir, String(process.ppid));
    const started = Date.now();
    const unlock = await lockDataDir(dir, { staleMs: STALE_MS });
    expect(Date.now() - started).toBeLessThan(STALE_MS);
    expect(await readFile(path.join(dir, OWNER), 'utf8')).toMatch(THIS_OWNER);
    await unlock();
  });

  it('takes over a stale lock at once when its pid now belongs to a process started later', async () => {
    const dir = await tempDir();
    // The owner file names this runner's parent, but a start time that is not the parent's.
    await staleLock(dir, `${process.ppid} 1`);
    const started = Date.now();
    const unlock = await lockDataDir(dir, { staleMs: STALE_MS });
    expect(Date.now() - started).toBeLessThan(STALE_MS);
    await unlock();
  });

  it('never takes the lock of an owner that still runs, however late its refresh', async () => {
    const dir = await tempDir();
    const first = holder(dir);
    expect(await first.said).toBe('locked');
    const pid = first.child.pid ?? 0;
    // Stopped, the owner refreshes nothing: its lock is long past the stale period by its mtime.
    first.child.kill('SIGSTOP');
    try {
      await new Promise((resolve) => setTimeout(resolve, 2 * STALE_MS));
      const refreshed = (await stat(path.join(dir, LOCK))).mtimeMs;
      expect(Date.now() - refreshed).toBeGreaterThan(STALE_MS);
      await expect(lockDataDir(dir, { staleMs: STALE_MS })).rejects.toThrow(
        `is in use by process ${pid}`,
      );
      // The owner's lock, untouched.
      expect((await stat(path.join(dir, LOCK))).mtimeMs).toBe(refreshed);
    } finally {
      first.child.kill('SIGCONT');
    }
    // Running again, the owner finds its lock as it left it and goes on holding it.
    await new Promise((resolve) => setTimeout(resolve, STALE_MS));
    expect(first.child.exitCode).toBeNull();
    await expect(lockDataDir(dir, { staleMs: STALE_MS })).rejects.toThrow(
      `is in use by process ${pid}`,
    );
    first.child.kill('SIGKILL');
    await once(first.child, 'exit');
    const unlock = await lockDataDir(dir, { staleMs: STALE_MS });
    await unlock();
  });

  it('tells its owner when the lock is lost (its directory removed)', async () => {
    const dir = await tempDir();
    let lost: Error | undefined;
    const unlock = await lockDataDir(dir, {
      staleMs: STALE_MS,
      onLost: (error) => {
        lost = error;
      },
    });
    await rm(path.join(dir, LOCK), { recursive: true });
    await new Promise((resolve) => setTimeout(resolve, STALE_MS));
    expect(lost).toMatchObject({ code: 'ECOMPROMISED' });
    await unlock();
  });

  it('lets exactly one of two racing takers have a stale lock', async () => {
    for (let round = 0; round < 20; round++) {
      const dir = await tempDir();
      await staleLock(dir, DEAD_PID);
      const results = await Promise.allSettled([
        lockDataDir(dir, { staleMs: STALE_MS }),
        lockDataDir(dir, { staleMs: STALE_MS }),
      ]);
      const winners = results.filter((result) => result.status === 'fulfilled');
      expect(winners).toHaveLength(1);
      for (const winner of winners) await winner.value();
    }
  });

  it('never removes a lock a faster taker has just made, though this taker saw it stale', async () => {
    const dir = await tempDir();
    await staleLock(dir, DEAD_PID);
    // The slower taker has seen the stale lock; the faster one takes over first.
    const slower = guardedFs(path.join(dir, LOCK), STALE_MS, () => false);
    const unlock = await lockDataDir(dir, { staleMs: STALE_MS });
    const removal = await new Promise<Error | null>((resolve) => {
      slower.rmdir(path.join(dir, LOCK), resolve);
    });
    expect(removal).toMatchObject({ code: 'ELOCKED' });
    expect((await stat(path.join(dir, LOCK))).isDirectory()).toBe(true);
    await unlock();
  });

  it('lets exactly one of two racing processes have a stale lock', async () => {
    const dir = await tempDir();
    await staleLock(dir, DEAD_PID);
    const said = await Promise.all([holder(dir).said, holder(dir).said]);
    expect(said.sort()).toEqual(['locked', 'refused']);
  });
});

describe('ownerStillRuns', () => {
  it('is true only for a live pid that started when the record says', async () => {
    const started = await ownStartTime();
    expect(ownerStillRuns(`${process.pid} ${started}`)).toBe(true);
    expect(ownerStillRuns(`${process.pid} ${started}\n`)).toBe(true);
    // The same pid, another start: a later process that got the pid.
    expect(ownerStillRuns(`${process.pid} 1`)).toBe(false);
    // No start time (an older version's record) proves nothing; a dead pid is no owner.
    expect(ownerStillRuns(String(process.pid))).toBe(false);
    expect(ownerStillRuns(`${DEAD_PID} ${started}`)).toBe(false);
    for (const junk of ['', 'x', '-1 5', '0 5', ' ']) expect(ownerStillRuns(junk)).toBe(false);
  });
});
