import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openDatabase, PGLITE_SHARED_BUFFERS } from './client.ts';

const shown = z.object({ rows: z.array(z.object({ shared_buffers: z.string() })).length(1) });

describe('the embedded database', () => {
  it.each([
    ['in memory', false],
    ['in a data directory', true],
  ])('keeps its shared buffers small (%s)', async (_, onDisk) => {
    const dir = onDisk ? await mkdtemp(path.join(tmpdir(), 'orgsmith-client-')) : undefined;
    const handle = await openDatabase({ dataDir: dir });
    try {
      const result = await handle.db.execute(sql`show shared_buffers`);
      expect(shown.parse(result).rows[0]?.shared_buffers).toBe(PGLITE_SHARED_BUFFERS);
    } finally {
      await handle.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    }
  });
});
