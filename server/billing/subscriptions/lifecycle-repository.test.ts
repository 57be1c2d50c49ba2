import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { databaseTargets } from '#tests/support/databases.ts';
import type { DatabaseHandle } from '#server/platform/db/client.ts';
import type { Database } from '#server/platform/db/database.ts';
import { createLifecycleRepository, type DueCursor } from './lifecycle-repository.ts';

const addressRows = z.object({
  rows: z.array(z.object({ to_address: z.string(), status: z.string() })),
});

async function addLicence(db: Database, email: string): Promise<string> {
  const id = randomUUID();
  await db.execute(sql`insert into licences (id, type, edition, email, email_normalized, key_hash, key_hint, product_id)
    values (${id}, 'Trial', 'Pro', ${email}, ${email.toLowerCase()}, ${randomUUID()}, 'XXXX', 'p')`);
  return id;
}

async function addMail(db: Database, to: string, status: string) {
  await db.execute(sql`insert into email_outbox (kind, message_id, to_address, subject, status, next_attempt_at)
    values ('test', ${randomUUID()}, ${to}, 'Subject', ${status}, now())`);
}

/** Every outbox row as `address status`, in the order written. */
async function mailsIn(db: Database): Promise<string[]> {
  return addressRows
    .parse(await db.execute(sql`select to_address, status from email_outbox order by id`))
    .rows.map((row) => `${row.to_address} ${row.status}`);
}

describe.each(databaseTargets)('deleting licences on $name', (target) => {
  let handle: DatabaseHandle;
  beforeEach(async () => {
    handle = await target.open();
  });
  afterEach(async () => {
    await handle.close();
  });

  it('deletes the e-mails sent to its address with the last licence of that address', async () => {
    const { db } = handle;
    const first = await addLicence(db, 'Ann@Example.com');
    const second = await addLicence(db, 'ann@example.com');
    await addLicence(db, 'bob@example.com');
    await addMail(db, 'ann@example.com', 'sent');
    await addMail(db, 'ANN@example.com', 'failed');
    await addMail(db, 'ann@example.com', 'pending');
    await addMail(db, 'bob@example.com', 'sent');
    const mails = () => mailsIn(db);

    await createLifecycleRepository(db).deleteLicence(first);
    expect(await mails()).toHaveLength(4);

    await createLifecycleRepository(db).deleteLicence(second);
    expect(await mails()).toEqual(['ann@example.com pending', 'bob@example.com sent']);
  });

  it('deletes them and the e-mails of the addresses that no licence keeps', async () => {
    const { db } = handle;
    const carl = await addLicence(db, 'Carl@Example.com');
    const carlAgain = await addLicence(db, 'carl@example.com');
    const dora = await addLicence(db, 'dora@example.com');
    await addLicence(db, 'dora@example.com');
    const eve = await addLicence(db, 'eve@example.com');
    for (const to of [
      'carl@example.com',
      'CARL@example.com',
      'dora@example.com',
      'eve@example.com',
    ])
      await addMail(db, to, 'sent');
    await addMail(db, 'eve@example.com', 'pending');

    const deleted = await createLifecycleRepository(db).deleteLicences([
      carl,
      carlAgain,
      dora,
      eve,
    ]);
    expect(deleted).toBe(4);
    expect(await mailsIn(db)).toEqual(['dora@example.com sent', 'eve@example.com pending']);
    expect(await createLifecycleRepository(db).deleteLicences([carl])).toBe(0);
  });
});

describe.each(databaseTargets.filter((target) => target.name === 'postgres'))(
  'claiming due licences on a large table on $name',
  (target) => {
    let handle: DatabaseHandle;
    beforeAll(async () => {
      handle = await target.open();
      // 100,000 licences, 40 of them due, the others renewing over the coming year: the planner's
      // statistics as at scale (bench:scale), where it once walked the primary key instead. The
      // audit trigger is off for the seed (a hash-chained event per row is most of its cost; the
      // plan does not depend on it); the trigger that keeps `next_lifecycle_at` stays on.
      await handle.db.execute(sql`alter table licences disable trigger licences_audit`);
      await handle.db.execute(sql`
        insert into licences (id, type, edition, email, email_normalized, key_hash, key_hint,
          product_id, status, subscription_status, expires_at)
        select gen_random_uuid(), 'Paid', 'Pro', 'c' || n || '@example.com',
          'c' || n || '@example.com', md5(n::text), 'XXXX', 'p',
          case when n % 2500 = 1 then 'Cancelled' else 'Active' end,
          case when n % 2500 = 1 then 'canceled' else 'active' end,
          now() + case when n % 2500 = 1 then interval '-100 days'
            else (n % 365 + 1) * interval '1 day' end
        from generate_series(1, 100000) as n`);
      await handle.db.execute(sql`alter table licences enable trigger licences_audit`);
      await handle.db.execute(sql`analyze licences`);
    }, 120_000);
    afterAll(async () => {
      await handle.close();
    });

    it('reads the due rows through their index and claims them by primary key', async () => {
      const { db } = handle;
      const now = new Date();
      const repository = createLifecycleRepository(db);
      const ids = await repository.dueLicenceIds(now, 50_000);
      expect(ids).toHaveLength(40);
      expect(ids).toEqual([...ids].sort());
      expect(await repository.dueLicenceIds(now, 10)).toHaveLength(10);
      const claimed = await db.transaction((tx) =>
        createLifecycleRepository(tx).claimSweepBatch(ids.slice(0, 25), now),
      );
      expect(claimed.map((row) => row.id)).toEqual(ids.slice(0, 25));
      // A licence no longer due is not claimed, even when its id is asked for.
      await db.execute(
        sql`update licences set status = 'Active', subscription_status = 'active',
          expires_at = now() + interval '30 days' where id = ${ids[0]}`,
      );
      const again = await db.transaction((tx) =>
        createLifecycleRepository(tx).claimSweepBatch(ids.slice(0, 2), now),
      );
      expect(again.map((row) => row.id)).toEqual([ids[1]]);

      const plan = z.object({ rows: z.array(z.object({ 'QUERY PLAN': z.string() })) });
      const explain = async (query: { sql: string; params: unknown[] }) =>
        plan
          .parse(await db.execute(sql.raw(`explain ${inline(query.sql, query.params)}`)))
          .rows.map((row) => row['QUERY PLAN'])
          .join('\n');
      // Page by page (decision 242): every due row exactly once, each page through the index.
      const paged: string[] = [];
      let after: DueCursor | null = null;
      for (;;) {
        const page: DueCursor[] = await repository.dueLicencePage(now, after, 7);
        paged.push(...page.map((row) => row.id));
        after = page.at(-1) ?? null;
        if (page.length < 7) break;
      }
      expect(paged.toSorted()).toEqual(await repository.dueLicenceIds(now, 50_000));
      expect(new Set(paged).size).toBe(paged.length);
      const nextPage = await explain(
        repository.dueLicencePageQuery(now, { id: ids[5] ?? '', at: now.toISOString() }, 7).toSQL(),
      );
      expect(nextPage).toContain('licences_next_lifecycle_idx');
      expect(nextPage).not.toMatch(/Seq Scan|licences_pkey/);
      const find = await explain(repository.dueLicenceIdsQuery(now, 50_000).toSQL());
      expect(find).toContain('licences_next_lifecycle_idx');
      expect(find).not.toMatch(/Seq Scan|licences_pkey/);
      const claim = await explain(repository.claimSweepQuery(ids.slice(0, 25), now).toSQL());
      expect(claim).toContain('licences_pkey');
      expect(claim).not.toMatch(/Seq Scan/);
    });
  },
);

/** A statement with its parameters written in (for EXPLAIN, which takes no bind parameters). */
function inline(text: string, params: unknown[]): string {
  return text.replace(/\$(\d+)/g, (_, n: string) => {
    const value = params[Number(n) - 1];
    if (Array.isArray(value)) return `'{${value.join(',')}}'`;
    const literal = value instanceof Date ? value.toISOString() : String(value);
    return `'${literal.replaceAll("'", "''")}'`;
  });
}
