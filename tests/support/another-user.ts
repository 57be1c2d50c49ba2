import { spawnSync } from 'node:child_process';
import {
  chmod,
  copyFile,
  link,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  rm,
  symlink,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';

/** The user tests run something as when they need someone other than the server's owner. */
export const NOBODY = 65534;

/** What another user runs: this process's Node, and the app when asked, in a directory it can enter. */
export interface ForAnotherUser {
  /** A directory the user can enter: the app's when `app` was asked for. */
  dir: string;
  /** This process's Node, or a copy the user can run. */
  node: string;
  /** Removes the copy, if one was made. */
  remove(): Promise<void>;
}

/** The Dockerfile's app stage (the deploy test runs the same): the built app and its sources. */
const APP_ENTRIES = ['package.json', 'build', 'server', 'shared'];

const lockSchema = z.object({
  packages: z.record(z.string(), z.object({ dev: z.boolean().optional() })),
});

/** The top-level packages `npm ci --omit=dev` installs, from the lock file. */
async function productionPackages(): Promise<string[]> {
  const lock = lockSchema.parse(JSON.parse(await readFile('package-lock.json', 'utf8')));
  return Object.entries(lock.packages)
    .filter(([key, entry]) => /^node_modules\/(?:@[^/]+\/)?[^/]+$/.test(key) && !entry.dev)
    .map(([key]) => key);
}

/**
 * `source` at `target`: a hard link (no bytes copied) where others may already read it, and run
 * it if its owner may; a copy with those rights otherwise. Directories are made 0755.
 */
async function place(source: string, target: string): Promise<void> {
  const info = await lstat(source).catch(() => undefined);
  if (!info) return;
  if (info.isSymbolicLink()) {
    await symlink(await readlink(source), target);
    return;
  }
  if (info.isDirectory()) {
    await mkdir(target);
    await chmod(target, 0o755);
    const names = await readdir(source);
    await Promise.all(names.map((name) => place(path.join(source, name), path.join(target, name))));
    return;
  }
  const executable = (info.mode & 0o100) !== 0;
  const needed = executable ? 0o005 : 0o004;
  if ((info.mode & needed) === needed) {
    const linked = await link(source, target).then(
      () => true,
      () => false,
    );
    if (linked) return;
  }
  await copyFile(source, target);
  await chmod(target, executable ? 0o755 : 0o644);
}

/** Whether `uid` can run this process's Node and read the checkout's built app where they are. */
function reachesCheckout(uid: number, app: boolean): boolean {
  const files = app
    ? ['build/service/main.js', 'server/main.ts', 'node_modules/hono/package.json']
    : [];
  const probe = spawnSync(
    '/bin/sh',
    ['-c', 'test -x "$1" || exit 1; shift; for f; do test -r "$f" || exit 1; done', 'sh'].concat(
      [process.execPath, ...files].map((file) => path.resolve(file)),
    ),
    { uid, gid: uid, cwd: '/', timeout: 10_000 },
  );
  return probe.status === 0;
}

/**
 * What another user (`uid`, default `nobody`) must run, where it can reach it. A clone may live
 * in a folder others cannot enter (mode 0700, as under root's home), where `spawn` as that user
 * fails with EACCES. Then this process's Node and, with `app`, what a server start needs (the
 * Dockerfile's app stage and the production packages) are placed in a temporary 0755 directory,
 * linked where their modes allow and copied where not; a checkout others can reach is used as it
 * is. Every test that runs something as another user goes through here.
 */
export async function forAnotherUser(
  options: { app?: boolean; uid?: number } = {},
): Promise<ForAnotherUser> {
  const app = options.app ?? false;
  if (reachesCheckout(options.uid ?? NOBODY, app)) {
    return { dir: app ? process.cwd() : tmpdir(), node: process.execPath, remove: async () => {} };
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'orgsmith-another-user-'));
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    await chmod(dir, 0o755);
    const node = path.join(dir, 'node');
    await place(process.execPath, node);
    if (app) {
      for (const entry of APP_ENTRIES) await place(path.resolve(entry), path.join(dir, entry));
      for (const name of await productionPackages()) {
        // node_modules, or a scope's folder in it.
        for (const folder of [path.join(dir, 'node_modules'), path.dirname(path.join(dir, name))]) {
          await mkdir(folder, { recursive: true });
          await chmod(folder, 0o755);
        }
        await place(path.resolve(name), path.join(dir, name));
      }
    }
    return { dir, node, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}
