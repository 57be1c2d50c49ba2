import { open, readFile, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * PGlite is a single-process database: a second process opening the same directory would corrupt
 * it. A lock file holding the owner's pid keeps a second server or admin command out; a lock
 * left behind by a process that no longer runs is taken over.
 */
export async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  const file = path.join(dir, 'orgsmith.lock');
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => rm(file, { force: true });
    } catch (error) {
      if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) throw error;
      const owner = Number.parseInt(await readFile(file, 'utf8').catch(() => ''), 10);
      if (Number.isInteger(owner) && owner !== process.pid && processIsAlive(owner)) {
        throw new Error(
          `The embedded database in ${dir} is in use by process ${owner}. Stop that process first, or use DATABASE_URL to share a PostgreSQL server.`,
          { cause: error },
        );
      }
      await rm(file, { force: true });
    }
  }
  throw new Error(`Could not lock the embedded database in ${dir}`);
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}
