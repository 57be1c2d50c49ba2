import { chmod, lchown, mkdir, mkdtemp, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirNotPrivate, makeDataDirPrivate, tightenTree } from './make-data-dir-private.ts';

const modeOf = async (file: string) => (await stat(file)).mode & 0o777;

describe('DATA_DIR is closed to other users (decision 157)', () => {
  let parent: string;
  beforeEach(async () => {
    parent = await mkdtemp(path.join(tmpdir(), 'orgsmith-private-'));
  });
  afterEach(async () => {
    await rm(parent, { recursive: true, force: true });
  });

  it('creates a missing DATA_DIR 0700, whatever the umask', async () => {
    const dir = path.join(parent, 'nested', 'data');
    const umask = process.umask(0o000);
    try {
      await makeDataDirPrivate(dir, { create: true });
    } finally {
      process.umask(umask);
    }
    expect(await modeOf(dir)).toBe(0o700);
  });

  it('leaves a missing DATA_DIR missing when nothing will be written there', async () => {
    const dir = path.join(parent, 'unused');
    await makeDataDirPrivate(dir, { create: false });
    await expect(stat(dir)).rejects.toThrow(/ENOENT/);
  });

  it('tightens an open tree: directories 0700, files their owner bits only', async () => {
    const dir = path.join(parent, 'data');
    await mkdir(path.join(dir, 'pglite', 'base'), { recursive: true });
    await writeFile(path.join(dir, 'pglite', 'base', 'secret'), 'WAL');
    await writeFile(path.join(dir, 'run.sh'), '#!/bin/sh');
    await chmod(path.join(dir, 'pglite', 'base', 'secret'), 0o666);
    await chmod(path.join(dir, 'run.sh'), 0o755);
    await chmod(path.join(dir, 'pglite', 'base'), 0o777);
    await chmod(path.join(dir, 'pglite'), 0o755);
    await chmod(dir, 0o777);
    await makeDataDirPrivate(dir, { create: true });
    expect(await modeOf(dir)).toBe(0o700);
    expect(await modeOf(path.join(dir, 'pglite'))).toBe(0o700);
    expect(await modeOf(path.join(dir, 'pglite', 'base'))).toBe(0o700);
    expect(await modeOf(path.join(dir, 'pglite', 'base', 'secret'))).toBe(0o600);
    expect(await modeOf(path.join(dir, 'run.sh'))).toBe(0o700);
  });

  it('follows no symbolic link out of the tree', async () => {
    const dir = path.join(parent, 'data');
    const outside = path.join(parent, 'outside.txt');
    await mkdir(dir);
    await writeFile(outside, 'not ours to change');
    await chmod(outside, 0o644);
    await symlink(outside, path.join(dir, 'link'));
    await tightenTree(dir);
    expect(await modeOf(outside)).toBe(0o644);
  });

  // Only root can hand an entry to another user: skipped otherwise.
  it.runIf(process.getuid?.() === 0)(
    'refuses a DATA_DIR holding what another user planted while it was open',
    async () => {
      const dir = path.join(parent, 'data');
      const theirs = path.join(parent, 'theirs');
      await mkdir(dir);
      await mkdir(theirs);
      await symlink(theirs, path.join(dir, 'mail'));
      await lchown(path.join(dir, 'mail'), 65534, 65534);
      await expect(makeDataDirPrivate(dir, { create: true })).rejects.toThrow(
        new RegExp(
          `holds ${path.join(dir, 'mail')}, which belongs to another user \\(uid 65534\\)`,
        ),
      );
      await lchown(path.join(dir, 'mail'), 0, 0);
      await makeDataDirPrivate(dir, { create: true });
    },
  );

  it('refuses a DATA_DIR that is no directory, in one line', async () => {
    const file = path.join(parent, 'file');
    await writeFile(file, '');
    await expect(makeDataDirPrivate(file, { create: true })).rejects.toThrow(DataDirNotPrivate);
  });
});
