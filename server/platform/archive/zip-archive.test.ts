import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { zipArchive } from './zip-archive.ts';

const run = promisify(execFile);

describe('zipArchive', () => {
  it('writes an archive that unzip tests, lists and extracts byte for byte', async () => {
    const pdf = Buffer.from(Array.from({ length: 50_000 }, (_, i) => (i * 7919) % 256));
    const zip = zipArchive(
      [
        { name: 'documents.csv', bytes: Buffer.from('number,net\r\nINV-2026-00001,1.00\r\n') },
        { name: 'pdf/INV-2026-00001.pdf', bytes: pdf },
        { name: 'empty.txt', bytes: new Uint8Array(0) },
        { name: 'Société.txt', bytes: Buffer.from('ü') },
      ],
      new Date('2026-11-30T12:34:56Z'),
    );
    const dir = await mkdtemp(join(tmpdir(), 'zip-archive-'));
    try {
      const file = join(dir, 'out.zip');
      await writeFile(file, zip);
      expect((await run('unzip', ['-t', file])).stdout).toContain('No errors detected');
      expect((await run('unzip', ['-Z1', file])).stdout.split('\n').filter(Boolean)).toEqual([
        'documents.csv',
        'pdf/INV-2026-00001.pdf',
        'empty.txt',
        'Société.txt',
      ]);
      const extracted = await run('unzip', ['-p', file, 'pdf/INV-2026-00001.pdf'], {
        encoding: 'buffer',
        maxBuffer: 1 << 20,
      });
      expect(Buffer.compare(extracted.stdout, pdf)).toBe(0);
      expect((await run('unzip', ['-p', file, 'documents.csv'])).stdout).toBe(
        'number,net\r\nINV-2026-00001,1.00\r\n',
      );
      expect((await run('zipinfo', ['-T', file])).stdout).toMatch(/20261130\.1234(56|55)/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses names that would leave the folder they are extracted to, and a name twice', () => {
    const at = new Date();
    for (const name of ['/etc/passwd', '../x', 'a/../../x', 'a\\b', '', 'a\0b']) {
      expect(() => zipArchive([{ name, bytes: new Uint8Array(1) }], at), name).toThrow(RangeError);
    }
    expect(() =>
      zipArchive(
        [
          { name: 'a', bytes: new Uint8Array(1) },
          { name: 'a', bytes: new Uint8Array(1) },
        ],
        at,
      ),
    ).toThrow(/Twice/);
  });
});
