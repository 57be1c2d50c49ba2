import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockDataDir } from './data-dir-lock.ts';

describe('lockDataDir', () => {
  it('keeps a second owner out while the first holds the lock, then lets it in', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'orgsmith-lock-'));
    // A live process other than this one (the parent) holds the lock.
    await writeFile(path.join(dir, 'orgsmith.lock'), String(process.ppid));
    await expect(lockDataDir(dir)).rejects.toThrow(/in use by process/);
  });

  it('takes over a lock left by a process that no longer runs, and releases it', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'orgsmith-lock-'));
    await writeFile(path.join(dir, 'orgsmith.lock'), '999999999');
    const unlock = await lockDataDir(dir);
    expect(await readFile(path.join(dir, 'orgsmith.lock'), 'utf8')).toBe(String(process.pid));
    await unlock();
    const again = await lockDataDir(dir);
    await again();
  });
});
