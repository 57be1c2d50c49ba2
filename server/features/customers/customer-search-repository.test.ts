import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { generateLicenceKey } from '#server/licensing/licences/licence-key.ts';
import type { DatabaseHandle } from '#server/platform/db/client.ts';
import { databaseTargets } from '#tests/support/databases.ts';
import { customerSearchQuery } from './customer-search-repository.ts';

const postgres = databaseTargets.filter((target) => target.name === 'postgres');

describe('reading the search box', () => {
  it.each([
    ['ada@example.com', 'address'],
    [generateLicenceKey(), 'licence key'],
    ['ORGS-1234', 'licence key'],
    ['0b6f3c9e-3f55-4b0e-9a51-1b6c0b0f6a11', 'licence id'],
    ['00D5g0000000007', 'org id'],
    ['00D5g0000000007AAA', 'org id'],
    ['q-2026-0003', 'quote'],
    ['INV-2026-00002', 'document'],
    ['cn-2026-00001', 'document'],
    ['io_AAAAAAAAAAAAAAAA', 'invoice order'],
    ['cus_Q1w2e3', 'provider customer'],
    ['lsub_abc123', 'provider subscription'],
    ['Acme', 'company name'],
    ['A', 'nothing'],
    ['', 'nothing'],
  ])('reads %j as %s', (text, kind) => {
    expect(customerSearchQuery('secret', text).kind).toBe(kind);
  });
});

// p95 under 300 ms at a million licences (issue 40) rests on every lookup using an index.
describe.each(postgres)('the search’s plans on $name', (target) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await target.open();
  });
  afterAll(() => handle.close());

  it('finds every kind through an index, never by reading a table', async () => {
    const plans = z.object({ rows: z.array(z.record(z.string(), z.unknown())) });
    for (const text of [
      'ada@example.com',
      generateLicenceKey(),
      '0b6f3c9e-3f55-4b0e-9a51-1b6c0b0f6a11',
      '00D5g0000000007',
      'Q-2026-0003',
      'INV-2026-00002',
      'io_AAAAAAAAAAAAAAAA',
      'cus_Q1w2e3',
      'sub_Q1w2e3',
      'Acme Gm',
    ]) {
      const { query } = customerSearchQuery('secret', text);
      if (!query) throw new Error(`no query for ${text}`);
      const plan = await handle.db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        return plans
          .parse(await tx.execute(sql`explain ${query}`))
          .rows.map((row) => Object.values(row).join(' '))
          .join('\n');
      });
      expect({ text, plan }).not.toEqual({ text, plan: expect.stringContaining('Seq Scan') });
    }
  });
});
