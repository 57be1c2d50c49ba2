import type { Stats } from 'node:fs';
import { chmod, lstat, mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { StartupRefusal } from '../startup/startup-refusal.ts';

/** Directories under DATA_DIR: their owner alone lists, reads and enters them. */
export const PRIVATE_DIR_MODE = 0o700;
/** Group and others: the bits nobody but the owner may hold under DATA_DIR. */
const OPEN_BITS = 0o077;

/** DATA_DIR stays open to other users after the attempt to close it; the message says how to fix it. */
export class DataDirNotPrivate extends StartupRefusal {
  override name = 'DataDirNotPrivate';
  constructor(message: string) {
    super('DATA_DIR', message);
  }
}

function code(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? Reflect.get(error, 'code') : undefined;
}

const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`;

/** Told of every entry below the root (symbolic links too, not followed) with its `lstat`. */
type EntryVisitor = (entry: string, info: Stats) => void;

/**
 * Takes group and others' bits off `root` and everything below it: directories become 0700, files
 * keep only their owner's bits (0600). Symbolic links below `root` are not followed (one could
 * point out of the tree); an entry this user may not change, or that vanished meanwhile, is left.
 */
export async function tightenTree(root: string, visit?: EntryVisitor): Promise<void> {
  const info = await tighten(root, stat);
  if (info?.isDirectory()) await tightenBelow(root, visit);
}

async function tightenBelow(dir: string, visit: EntryVisitor | undefined): Promise<void> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (code(error) === 'ENOENT' || code(error) === 'EACCES') return;
    throw error;
  }
  await Promise.all(
    entries.map(async (entry) => {
      const entryPath = path.join(dir, entry.name);
      const info = await tighten(entryPath, lstat);
      if (info) visit?.(entryPath, info);
      if (info?.isDirectory()) await tightenBelow(entryPath, visit);
    }),
  );
}

/** One entry: a directory to 0700, anything else but a link to its owner's bits alone. */
async function tighten(file: string, statOf: typeof lstat): Promise<Stats | undefined> {
  try {
    const info = await statOf(file);
    if (!info.isSymbolicLink() && info.mode & OPEN_BITS) {
      await chmod(file, info.isDirectory() ? PRIVATE_DIR_MODE : info.mode & 0o700);
    }
    return info;
  } catch (error) {
    if (code(error) === 'ENOENT') return undefined;
    if (code(error) === 'EPERM') return await statOf(file).catch(() => undefined);
    throw error;
  }
}

/**
 * DATA_DIR holds the embedded database (both signing keys, SECRET_KEY, every customer's address),
 * the `.eml` files with licence keys and the admin socket: nobody but the server's user may read
 * it (decision 157). Creates it 0700 when it is missing and `create` is set, takes group and
 * others' bits off everything in it, and throws `DataDirNotPrivate` (one line saying how to fix
 * it) when the directory itself is still open to them (e.g. owned by another user), or when it
 * holds an entry of another user than this one, root and (for root) the directory's owner.
 */
export async function makeDataDirPrivate(
  dataDir: string,
  options: { create: boolean },
): Promise<void> {
  const dir = path.resolve(dataDir);
  const existing = () =>
    stat(dir).catch((error: unknown) => {
      if (code(error) === 'ENOENT') return undefined;
      throw error;
    });
  let info = await existing();
  if (!info && options.create) {
    await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    info = await existing();
  }
  if (!info) return;
  if (!info.isDirectory()) throw new DataDirNotPrivate(`DATA_DIR ${dir} is not a directory.`);
  // Windows has no such mode bits (its ACLs inherit the parent's): nothing to check there.
  if (process.platform === 'win32') return;
  // Entries of other users (root's aside) were put there while it was open: a link planted as
  // `mail` would send licence keys to its owner, a directory of theirs stays theirs.
  const user = process.getuid?.();
  const owners = new Set([user, 0, user === 0 ? info.uid : user]);
  let foreign: { entry: string; uid: number } | undefined;
  await tightenTree(dir, (entry, entryInfo) => {
    if (!owners.has(entryInfo.uid)) foreign ??= { entry, uid: entryInfo.uid };
  });
  const after = await stat(dir);
  if (after.mode & OPEN_BITS) {
    throw new DataDirNotPrivate(
      `DATA_DIR ${dir} is open to other users (mode ${octal(after.mode)}, owner uid ${after.uid})` +
        ` and this server${user === undefined ? '' : ` (uid ${user})`} cannot close it:` +
        ` run \`chmod -R go= ${dir}\` as its owner, or set DATA_DIR to a directory of this user.`,
    );
  }
  if (foreign) {
    throw new DataDirNotPrivate(
      `DATA_DIR ${dir} holds ${foreign.entry}, which belongs to another user (uid ${foreign.uid})` +
        ' who could read or redirect what the server writes there: remove it, or check it and' +
        ` give it to this server's user (\`chown -R ${user ?? '<user>'} ${dir}\`).`,
    );
  }
}
