import { lstat, realpath, stat } from 'node:fs/promises';
import path from 'node:path';

/** A backup that is not even started, for a reason the operator can fix; nothing is written. */
export class BackupRefused extends Error {
  override name = 'BackupRefused';
}

const inside = (dir: string, parent: string) =>
  dir === parent || dir.startsWith(`${parent}${path.sep}`);

/**
 * Checks where a backup is to be written before anything is: an absolute path (the command
 * resolves what the operator typed against their own working directory), in a directory that
 * exists, naming no directory, and outside the directories the database and its socket live in
 * (compared after resolving symbolic links, so a link cannot lead the rename there).
 */
export async function checkBackupPath(file: string, forbidden: readonly string[]): Promise<void> {
  if (!path.isAbsolute(file)) {
    throw new BackupRefused(`The backup path must be absolute: ${file}. Nothing was written.`);
  }
  const dir = path.dirname(file);
  const real = await realpath(dir).catch(() => undefined);
  if (real === undefined || !(await stat(real)).isDirectory()) {
    throw new BackupRefused(`No such directory: ${dir}. Create it first; nothing was written.`);
  }
  for (const place of forbidden) {
    const realPlace = await realpath(place).catch(() => path.resolve(place));
    if (inside(real, realPlace)) {
      throw new BackupRefused(
        `${file} is inside ${place}, where the database lives: write backups elsewhere. Nothing was written.`,
      );
    }
  }
  if ((await lstat(file).catch(() => undefined))?.isDirectory()) {
    throw new BackupRefused(`${file} is a directory: name the file to write. Nothing was written.`);
  }
}
