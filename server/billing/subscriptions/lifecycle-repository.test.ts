import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { databaseTargets } from '#tests/support/databases.ts';
import type { DatabaseHandle } from '#server/platform/db/client.ts';
import type { Database } from '#server/platform/db/database.ts';
import { createLifecycleRepository } from './lifecycle-repository.ts';

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

describe.each(databaseTargets)('deleting a licence on $name', (target) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await target.open();
  });
  afterAll(async () => {
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
    const mails = async () =>
      addressRows
        .parse(await db.execute(sql`select to_address, status from email_outbox order by id`))
        .rows.map((row) => `${row.to_address} ${row.status}`);

    await createLifecycleRepository(db).deleteLicence(first);
    expect(await mails()).toHaveLength(4);

    await createLifecycleRepository(db).deleteLicence(second);
    expect(await mails()).toEqual(['ann@example.com pending', 'bob@example.com sent']);
  });
});
