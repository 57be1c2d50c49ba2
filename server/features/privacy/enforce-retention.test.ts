import { verifyAuditChain } from '#server/platform/audit/audit-log-repository.ts';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { databaseTargets } from '#tests/support/databases.ts';
import type { DatabaseHandle } from '#server/platform/db/client.ts';
import type { Database } from '#server/platform/db/database.ts';
import { enforceMailFileRetention, enforceRetention } from './enforce-retention.ts';
import { retentionRules } from './retention-repository.ts';
import { yearEndCutoff } from './retention-policy.ts';

const DAY = 24 * 60 * 60 * 1000;
const now = new Date('2030-06-15T12:00:00Z');
const ago = (days: number) => new Date(now.getTime() - days * DAY).toISOString();

const countRow = z.object({ rows: z.array(z.object({ n: z.coerce.number() })) });
async function count(db: Database, table: string): Promise<number> {
  const result = await db.execute(sql.raw(`select count(*)::int as n from ${table}`));
  return countRow.parse(result).rows[0]?.n ?? -1;
}

async function addOutbox(
  db: Database,
  status: string,
  createdDaysAgo: number,
  sentDaysAgo?: number,
) {
  await db.execute(sql`insert into email_outbox
    (kind, message_id, to_address, subject, status, next_attempt_at, created_at, sent_at)
    values ('test', ${randomUUID()}, 'someone@example.com', 'Your licence', ${status},
      ${ago(createdDaysAgo)}::timestamptz, ${ago(createdDaysAgo)}::timestamptz,
      ${sentDaysAgo === undefined ? null : ago(sentDaysAgo)}::timestamptz)`);
}

async function addQuote(db: Database, number: string, createdAt: string) {
  await db.execute(sql`insert into quotes (number, year, sequence, token_hash, company_name, email,
      edition, quantity, billing_period, currency, total_cents, quote_date, valid_until, document, created_at)
    values (${number}, ${Number(number.slice(2, 6))}, ${Number(number.slice(-4))}, ${randomUUID()}, 'Acme', 'buyer@example.com',
      'Pro', 4, 'yearly', 'EUR', 100, '2020-01-01', '2020-01-31', '{}'::jsonb, ${createdAt}::timestamptz)`);
}

describe.each(databaseTargets)('the retention job on $name', (target) => {
  let handle: DatabaseHandle;
  let db: Database;
  beforeAll(async () => {
    handle = await target.open();
    db = handle.db;
  });
  afterAll(async () => {
    await handle.close();
  });

  it('deletes what is past its period, in batches, and keeps the rest', async () => {
    for (let i = 0; i < 5; i++) await addOutbox(db, 'sent', 40, 31);
    await addOutbox(db, 'sent', 40, 29);
    await addOutbox(db, 'failed', 31);
    await addOutbox(db, 'failed', 29);
    await addOutbox(db, 'pending', 400);
    await db.execute(sql`insert into payment_events (provider, event_id, type, processed_at) values
      ('stripe', 'evt_old', 'x', ${ago(91)}::timestamptz), ('stripe', 'evt_new', 'x', ${ago(89)}::timestamptz)`);
    await db.execute(sql`insert into contact_messages (id, email, name, message, created_at) values
      (${randomUUID()}, 'a@example.com', 'A', 'old', ${ago(181)}::timestamptz),
      (${randomUUID()}, 'b@example.com', 'B', 'new', ${ago(179)}::timestamptz)`);
    const licenceId = randomUUID();
    await db.execute(sql`insert into licences (id, type, edition, email, email_normalized, key_hash, key_hint, product_id)
      values (${licenceId}, 'Paid', 'Pro', 'c@example.com', 'c@example.com', ${randomUUID()}, 'XXXX', 'p')`);
    await db.execute(sql`insert into licence_orgs (licence_id, org_id, first_seen_at, last_seen_at) values
      (${licenceId}, '00D000000000001AAA', ${ago(400)}::timestamptz, ${ago(91)}::timestamptz),
      (${licenceId}, '00D000000000002AAA', ${ago(400)}::timestamptz, ${ago(89)}::timestamptz)`);
    // Quotes: 6 years after the end of their year. In mid-2030, 2023's are past it, 2024's not.
    await addQuote(db, 'Q-2023-0001', '2023-12-30T12:00:00Z');
    await addQuote(db, 'Q-2024-0001', '2024-01-01T00:30:00Z');
    await db.execute(sql`insert into privacy_requests (id, kind, subject_hash, summary, performed_at) values
      (${randomUUID()}, 'export', 'h', '{}'::jsonb, '2026-12-01T00:00:00Z'::timestamptz),
      (${randomUUID()}, 'export', 'h', '{}'::jsonb, '2027-01-02T00:00:00Z'::timestamptz)`);

    // The audit details of the rows written above are dated today by the database's clock, more
    // than 3 years before `now`: they go too (the events stay and still verify).
    const details = await count(db, 'audit_event_details');
    expect(details).toBeGreaterThan(0);
    const report = await enforceRetention(db, now, { batchSize: 2 });

    expect(report).toEqual({
      'email_outbox sent': 5,
      'email_outbox failed': 1,
      payment_events: 1,
      contact_messages: 1,
      licence_orgs: 1,
      quotes: 1,
      privacy_requests: 1,
      // With the details of the quote's deletion, written during the run.
      audit_event_details: details + 1,
    });
    expect(await count(db, 'audit_event_details')).toBe(0);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true, erasedDetails: details + 1 });
    expect(await count(db, 'email_outbox')).toBe(3);
    expect(await count(db, 'payment_events')).toBe(1);
    expect(await count(db, 'contact_messages')).toBe(1);
    expect(await count(db, 'licence_orgs')).toBe(1);
    expect(await count(db, 'quotes')).toBe(1);
    expect(await count(db, 'privacy_requests')).toBe(1);
    expect(await enforceRetention(db, now)).toEqual({});
  });

  it('uses an index for every rule’s predicate on a large table', async () => {
    if (target.name !== 'postgres') return;
    await db.execute(sql`set enable_seqscan = off`);
    const plans = z.object({ rows: z.array(z.record(z.string(), z.unknown())) });
    for (const rule of retentionRules(now)) {
      const result = plans.parse(
        await db.execute(
          sql`explain select ${rule.key} from ${rule.table} where ${rule.where} limit 10`,
        ),
      );
      const plan = result.rows.map((row) => Object.values(row).join(' ')).join('\n');
      expect(plan, rule.name).toMatch(/Index/);
    }
    await db.execute(sql`reset enable_seqscan`);
  });
});

describe('the statutory cut-off', () => {
  it('counts whole years from the end of the year, a day to spare for Berlin', () => {
    expect(yearEndCutoff(new Date('2029-01-01T00:00:00Z'), 8).toISOString()).toBe(
      '2020-12-31T00:00:00.000Z',
    );
    expect(yearEndCutoff(new Date('2028-12-31T23:59:59Z'), 8).toISOString()).toBe(
      '2019-12-31T00:00:00.000Z',
    );
  });
});

describe('the e-mail files of $DATA_DIR/mail', () => {
  it('are deleted once their e-mail is older than an e-mail record is kept', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-mail-retention-'));
    try {
      expect(await enforceMailFileRetention(dataDir, now)).toBe(0);
      await mkdir(path.join(dataDir, 'mail'));
      const named = (iso: string, kind: string) =>
        `${iso.replace(/[:.]/g, '-')}-${kind}-${randomUUID()}.eml`;
      const headers = 'To: someone@example.com\r\nSubject: Hi\r\n\r\nbody';
      const old = named(ago(31), 'trial-licence');
      const recent = named(ago(29), 'contact-message');
      for (const name of [old, recent]) {
        await writeFile(path.join(dataDir, 'mail', name), headers);
      }
      expect(await enforceMailFileRetention(dataDir, now)).toBe(1);
      expect(await readdir(path.join(dataDir, 'mail'))).toEqual([recent]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
