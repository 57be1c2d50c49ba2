import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rotateBackups, scheduledBackupName } from './rotate-backups.ts';

describe('scheduled backup files', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'orgsmith-rotate-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('are named by their UTC time, so names sort as times do', () => {
    expect(scheduledBackupName(new Date('2026-01-15T10:00:07.123Z'))).toBe(
      'orgsmith-20260115T100007Z.jsonl.gz',
    );
  });

  it('keep the newest KEEP and leave every other file alone', async () => {
    const times = ['2026-01-15T09:00:00Z', '2026-01-15T10:00:00Z', '2026-01-14T23:00:00Z'];
    const scheduled = times.map((time) => scheduledBackupName(new Date(time)));
    const others = [
      'mine.jsonl.gz',
      'orgsmith-20260101T000000Z.jsonl.gz.0a1b2c.partial',
      'orgsmith-latest.jsonl.gz',
    ];
    for (const name of [...scheduled, ...others]) await writeFile(path.join(dir, name), 'x');
    expect(await rotateBackups(dir, 2)).toEqual(['orgsmith-20260114T230000Z.jsonl.gz']);
    expect((await readdir(dir)).sort()).toEqual([...others, scheduled[0], scheduled[1]].sort());
    expect(await rotateBackups(dir, 2)).toEqual([]);
  });
});
