import fs from 'node:fs';
import { mkdir, readFile, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { StartupRefusal } from '../startup/startup-refusal.ts';

/**
 * A lock whose owner has not refreshed it for this long belongs to a dead process, unless the
 * owner it names provably still runs (see `ownerStillRuns`).
 */
export const DATA_DIR_LOCK_STALE_MS = 10_000;
/** The lock itself: a directory (mkdir is atomic), its mtime refreshed by the owner. */
const LOCK_NAME = 'orgsmith-lock';
/**
 * Beside it, the owner: its pid and, where the system tells (Linux), the moment that process
 * started. The pid names the owner in the message a second process shows; both together tell a
 * live owner from a later process that got the same pid.
 */
const OWNER_NAME = `${LOCK_NAME}.owner`;
/** The pid file of older versions; its pid could be reused by an unrelated process. */
const LEGACY_LOCK_NAME = 'orgsmith.lock';
const RETRY_MS = 250;

export interface DataDirLockOptions {
  /** A lock not refreshed for this long is taken over (at least 2 s; default 10 s). */
  staleMs?: number;
  /**
   * Called when the lock is lost while held (its directory removed, or not refreshed within the
   * stale period, so another process may open the database now). The default prints why and ends
   * the process: carrying on could let two processes write the same files.
   */
  onLost?: ((error: Error) => void) | undefined;
}

function code(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? Reflect.get(error, 'code') : undefined;
}

function lockedError(lock: string): Error {
  return Object.assign(new Error(`${lock} is held by another process`), { code: 'ELOCKED' });
}

/**
 * PGlite is a single-process database: a second process opening the same directory would corrupt
 * it. The owner holds a lock directory whose mtime it refreshes every half stale period; a second
 * server or admin command is refused while the owner lives, and a lock nobody refreshed for the
 * stale period (its owner was killed) is taken over without anyone's help, whatever became of the
 * owner's pid (decision 133). Returns the release, for shutdown.
 */
export async function lockDataDir(
  dir: string,
  options: DataDirLockOptions = {},
): Promise<() => Promise<void>> {
  const staleMs = Math.max(options.staleMs ?? DATA_DIR_LOCK_STALE_MS, 2_000);
  const lockPath = path.join(dir, LOCK_NAME);
  const ownerPath = path.join(dir, OWNER_NAME);
  const onLost = options.onLost ?? exitOnLostLock(dir);
  let held = false;
  const lockOptions: lockfile.LockOptions = {
    stale: staleMs,
    update: staleMs / 2,
    realpath: false,
    lockfilePath: lockPath,
    fs: guardedFs(lockPath, staleMs, () => held),
    onCompromised: (error) => {
      held = false;
      onLost(error);
    },
  };
  // A lock whose owner is gone (killed moments ago) turns stale within one stale period: wait.
  const deadline = Date.now() + staleMs + 2 * RETRY_MS;
  const hardDeadline = Date.now() + 3 * staleMs;
  await mkdir(dir, { recursive: true });
  for (;;) {
    try {
      const release = await lockfile.lock(dir, lockOptions);
      held = true;
      await writeFile(ownerPath, ownerRecord());
      await rm(path.join(dir, LEGACY_LOCK_NAME), { force: true });
      let released = false;
      return async () => {
        if (released || !held) return;
        released = true;
        await rm(ownerPath, { force: true });
        await release();
        held = false;
      };
    } catch (error) {
      if (code(error) !== 'ELOCKED') throw error;
      const owner = Number.parseInt(await readFile(ownerPath, 'utf8').catch(() => ''), 10);
      const ownerLives = Number.isInteger(owner) && processIsAlive(owner);
      // Timers slip on a loaded machine: the wait ends by the lock's own clock (its last refresh
      // plus the stale period), never later than three stale periods.
      const refreshed = await stat(lockPath).then(
        (info) => info.mtimeMs,
        () => 0,
      );
      const waitUntil = Math.min(
        Math.max(deadline, refreshed + staleMs + 4 * RETRY_MS),
        hardDeadline,
      );
      if (ownerLives || Date.now() > waitUntil) {
        throw new StartupRefusal(
          'DATA_DIR',
          `The embedded database in DATA_DIR ${dir} is in use by ${ownerLives || Number.isInteger(owner) ? `process ${owner}` : 'another process'}. Stop that process first, or use DATABASE_URL to share a PostgreSQL server.`,
          { cause: error },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }
}

/**
 * proper-lockfile removes a stale lock and then creates its own; two processes that both saw it
 * stale could each remove the other's new lock. Here a stale lock is removed only under a
 * takeover guard (another atomic mkdir), only if it is still stale, and never while the owner it
 * names still runs: an owner whose refresh is late (its event loop held up by a long synchronous
 * step, or the machine overloaded) is slow, not dead, and keeps its lock (decision 202). One taker
 * wins. The `fs` proper-lockfile uses; exported for its test.
 */
export function guardedFs(lockPath: string, staleMs: number, holding: () => boolean) {
  const guardPath = `${lockPath}.takeover`;
  const ownerPath = `${lockPath}.owner`;
  const isStale = (mtime: Date) => mtime.getTime() < Date.now() - staleMs;
  async function removeStale(): Promise<void> {
    try {
      await mkdir(guardPath);
    } catch (error) {
      if (code(error) !== 'EEXIST') throw error;
      // A guard left by a taker that died in the middle: cleared now, used by the next attempt.
      const guard = await stat(guardPath).catch(() => undefined);
      if (guard && isStale(guard.mtime)) await rmdir(guardPath).catch(() => undefined);
      throw lockedError(lockPath);
    }
    try {
      const lock = await stat(lockPath).catch((error: unknown) => {
        if (code(error) === 'ENOENT') return undefined;
        throw error;
      });
      if (!lock) return;
      if (!isStale(lock.mtime)) throw lockedError(lockPath);
      if (ownerStillRuns(await readFile(ownerPath, 'utf8').catch(() => ''))) {
        throw lockedError(lockPath);
      }
      await rmdir(lockPath);
    } finally {
      await rmdir(guardPath).catch(() => undefined);
    }
  }
  return {
    ...fs,
    rmdir(target: string, callback: (error: Error | null) => void) {
      // Our own release, or any other directory: as usual.
      if (holding() || target !== lockPath) {
        fs.rmdir(target, callback);
        return;
      }
      removeStale().then(
        () => callback(null),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    },
  };
}

function exitOnLostLock(dir: string): (error: Error) => void {
  return (error) => {
    console.error(
      `Lost the lock on the embedded database in ${dir} (${error.message}); stopping so that no two processes write it.`,
    );
    process.exit(1);
  };
}

/**
 * When the process `pid` started, as Linux counts it (clock ticks after boot, field 22 of
 * /proc/<pid>/stat); undefined where there is no such file or it cannot be read.
 */
function processStartTime(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name in parentheses may hold spaces; the fields after it are plain.
    return stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .at(19);
  } catch {
    return undefined;
  }
}

/** What the owner file says of this process. */
function ownerRecord(): string {
  const started = processStartTime(process.pid);
  return started ? `${process.pid} ${started}` : String(process.pid);
}

/**
 * Whether the owner an owner file names still runs: its pid is alive and started when the file
 * says. A record without a start time (an older version's, or a system without /proc) proves
 * nothing, and a pid that now belongs to a later process is not the owner.
 */
export function ownerStillRuns(record: string): boolean {
  const [pidText = '', started] = record.trim().split(' ');
  const pid = Number.parseInt(pidText, 10);
  if (!Number.isInteger(pid) || pid <= 0 || !started) return false;
  return processIsAlive(pid) && processStartTime(pid) === started;
}

function processIsAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return code(error) === 'EPERM';
  }
}
