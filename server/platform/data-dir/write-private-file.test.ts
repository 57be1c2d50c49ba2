import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writePrivateFile } from './write-private-file.ts';

describe('writePrivateFile', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'orgsmith-private-file-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('writes every byte with mode 0600 whatever the umask, and leaves no temporary file', async () => {
    for (const mask of [0o000, 0o022, 0o277]) {
      const file = path.join(dir, `out-${mask.toString(8)}`);
      const previous = process.umask(mask);
      try {
        await writePrivateFile(file, Readable.from([Buffer.alloc(200_000, 'a'), Buffer.from('b')]));
      } finally {
        process.umask(previous);
      }
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect((await readFile(file)).length).toBe(200_001);
    }
    expect((await readdir(dir)).filter((name) => name.endsWith('.partial'))).toEqual([]);
  });

  it('leaves the old file as it was and removes the temporary one when the source fails', async () => {
    const file = path.join(dir, 'backup.gz');
    await writeFile(file, 'the previous backup');
    const failing = Readable.from(
      (async function* () {
        yield Buffer.from('half a backup');
        throw new Error('the snapshot failed');
      })(),
    );
    await expect(writePrivateFile(file, failing)).rejects.toThrow('the snapshot failed');
    expect(await readFile(file, 'utf8')).toBe('the previous backup');
    expect(await readdir(dir)).toEqual(['backup.gz']);
  });

  it('fails without writing when the directory does not exist', async () => {
    const file = path.join(dir, 'missing', 'backup.gz');
    await expect(writePrivateFile(file, Readable.from([Buffer.from('x')]))).rejects.toThrow(
      /ENOENT/,
    );
  });
});
