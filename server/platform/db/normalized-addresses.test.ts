import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { databaseTargets } from '#tests/support/databases.ts';
import { openOlderDatabase } from '#tests/support/older-schema.ts';
import { normalizeEmailAddress } from '#server/platform/email/normalize-email-address.ts';
import type { Executor } from './database.ts';
import { migrate } from './migrate.ts';

/** Columns named like an address that hold a postal address, not an e-mail address. */
const POSTAL_ADDRESSES = new Set([
  'local_checkout_sessions.billing_address',
  'local_invoices.billing_address',
  'quotes.billing_address',
]);
/** What an address column's normalized sibling is called when it is not `<column>_normalized`. */
const SIBLING_NAMED_OTHERWISE: Record<string, string> = {
  'invoice_orders.billing_email': 'email_normalized',
};
/** Siblings written by the code through normalizeEmailAddress (before 0860); the rest are generated. */
const WRITTEN_BY_THE_CODE = new Set([
  'licences.email_normalized',
  'invoice_orders.email_normalized',
  'local_customers.email_normalized',
]);
/** Columns named like an address that are derived from one or are not one. */
const NOT_AN_ADDRESS = /_normalized$|^email_domain$|^email_hash$/;
const ADDRESS_LIKE = /email|reply_to|_address$/;

const columnRows = z.object({
  rows: z.array(
    z.object({
      table_name: z.string(),
      column_name: z.string(),
      is_nullable: z.enum(['YES', 'NO']),
      is_generated: z.string(),
    }),
  ),
});
const indexRows = z.object({
  rows: z.array(z.object({ table_name: z.string(), column_name: z.string() })),
});

/**
 * Every column of the database that holds an e-mail address, and what is wrong with its
 * normalized sibling (decision 211): missing, nullable beside a NOT NULL address, not generated
 * by the database, or not the first column of an index.
 */
async function addressColumnProblems(db: Executor): Promise<string[]> {
  const columns = columnRows.parse(
    await db.execute(sql`select table_name, column_name, is_nullable, is_generated
      from information_schema.columns where table_schema = 'public' and data_type = 'text'`),
  ).rows;
  const indexed = new Set(
    indexRows
      .parse(
        await db.execute(sql`select t.relname as table_name, a.attname as column_name
          from pg_index x
          join pg_class t on t.oid = x.indrelid
          join pg_namespace n on n.oid = t.relnamespace
          join pg_attribute a on a.attrelid = t.oid and a.attnum = x.indkey[0]
          where n.nspname = 'public'`),
      )
      .rows.map((row) => `${row.table_name}.${row.column_name}`),
  );
  const byName = new Map(columns.map((row) => [`${row.table_name}.${row.column_name}`, row]));
  const problems: string[] = [];
  for (const column of columns) {
    const name = `${column.table_name}.${column.column_name}`;
    if (!ADDRESS_LIKE.test(column.column_name) || NOT_AN_ADDRESS.test(column.column_name)) continue;
    if (POSTAL_ADDRESSES.has(name)) continue;
    const siblingName = `${column.table_name}.${SIBLING_NAMED_OTHERWISE[name] ?? `${column.column_name}_normalized`}`;
    const sibling = byName.get(siblingName);
    if (!sibling) {
      problems.push(`${name} has no ${siblingName}`);
      continue;
    }
    if (column.is_nullable === 'NO' && sibling.is_nullable !== 'NO') {
      problems.push(`${siblingName} is nullable`);
    }
    if (sibling.is_generated !== 'ALWAYS' && !WRITTEN_BY_THE_CODE.has(siblingName)) {
      problems.push(`${siblingName} is not generated`);
    }
    if (!indexed.has(siblingName)) problems.push(`${siblingName} has no index`);
  }
  return problems;
}

/** Spellings that take every branch of the rule, and some that no form accepts. */
const spellings = [
  '  Jane.Doe@Example.COM ',
  'jane+trial@example.com',
  'jane+a+b@example.com',
  'J.a.n.e+x@gmail.com',
  'Jane.Doe+Quote@GoogleMail.com',
  'jane.doe@mail.gmail.com.evil.io',
  '+tag@example.com',
  '+tag@gmail.com',
  'a@b@gmail.com',
  '@example.com',
  'no-at-sign',
  'dots.only@',
  '\tTabbed+x@Example.org\n',
];

describe.each(databaseTargets)(
  'every e-mail address has its normalized form on $name',
  (target) => {
    it('each address column has a NOT NULL, generated, indexed `*_normalized` beside it', async () => {
      const handle = await target.open();
      try {
        expect(await addressColumnProblems(handle.db)).toEqual([]);
        // The rule finds a new address column that has no normalized form.
        await handle.db.execute(
          sql`create table privacy_probe (id int primary key, contact_email text not null)`,
        );
        expect(await addressColumnProblems(handle.db)).toEqual([
          'privacy_probe.contact_email has no privacy_probe.contact_email_normalized',
        ]);
      } finally {
        await handle.close();
      }
    });

    it('the database normalizes as normalizeEmailAddress does', async () => {
      const handle = await target.open();
      try {
        const normalized: string[] = [];
        for (const spelling of spellings) {
          const result = z
            .object({ rows: z.array(z.object({ normalized: z.string() })) })
            .parse(
              await handle.db.execute(
                sql`select normalize_email_address(${spelling}) as normalized`,
              ),
            );
          normalized.push(result.rows[0]?.normalized ?? '');
        }
        expect(normalized).toEqual(spellings.map(normalizeEmailAddress));
      } finally {
        await handle.close();
      }
    });

    it('fills the normalized form of the rows written before migration 0860', async () => {
      const handle = await openOlderDatabase(target, '0860_normalized_addresses.sql');
      try {
        await handle.db.execute(sql`insert into contact_messages (id, email, name, message)
          values (gen_random_uuid(), 'Jane.Doe+Contact@GoogleMail.com', 'Jane', 'Hello')`);
        await handle.db.execute(sql`insert into email_outbox
          (kind, message_id, to_address, reply_to, subject, next_attempt_at)
          values ('contact-message', 'm1', 'sales@orgsmith.io', ' J.Doe@Gmail.com', 'Hi', now())`);
        await migrate(handle.db);
        const rows = z
          .object({ rows: z.array(z.object({ normalized: z.string().nullable() })) })
          .parse(
            await handle.db.execute(sql`select email_normalized as normalized from contact_messages
              union all select to_address_normalized from email_outbox
              union all select reply_to_normalized from email_outbox`),
          ).rows;
        expect(rows.map((row) => row.normalized)).toEqual([
          'janedoe@gmail.com',
          'sales@orgsmith.io',
          'jdoe@gmail.com',
        ]);
      } finally {
        await handle.close();
      }
    });
  },
);
