import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { hashLicenceKey, parseLicenceKey } from '#server/licensing/licences/licence-key.ts';
import { readSalesforceOrgId } from '#server/licensing/licence-validation/salesforce-org-id.ts';
import type { Executor } from '#server/platform/db/database.ts';
import { normalizeEmailAddress } from '#server/platform/email/normalize-email-address.ts';

/** What the one search box was read as (decision 227). */
export type SearchKind =
  | 'address'
  | 'licence key'
  | 'licence id'
  | 'org id'
  | 'quote'
  | 'document'
  | 'invoice order'
  | 'provider customer'
  | 'provider subscription'
  | 'company name'
  | 'nothing';

/** One customer the search found: the normalized address that is their story, and why. */
export interface CustomerHit {
  /** The normalized address: the key of the customer's page. */
  customer: string;
  /** The address as last written. */
  email: string;
  /** What matched, for the result list: `licence …AB12`, `quote Q-2026-0003`, `company Acme GmbH`. */
  matched: string;
}

export interface CustomerSearchResult {
  kind: SearchKind;
  hits: CustomerHit[];
}

/** The longest text the search reads; anything longer finds nothing. */
export const SEARCH_MAX_LENGTH = 200;
/** The most customers one search lists. */
export const SEARCH_MAX_HITS = 25;
/** A company name is searched by its first letters, at least these many. */
const COMPANY_MIN_LENGTH = 2;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const QUOTE_NUMBER = /^Q-\d{4}-\d{1,6}$/i;
const DOCUMENT_NUMBER = /^(INV|CN)-\d{4}-\d{1,6}$/i;
const ORDER_ID = /^io_[A-Za-z0-9_-]{16}$/;
const CUSTOMER_ID = /^(cus|lcus)_[A-Za-z0-9_-]{3,64}$/;
const SUBSCRIPTION_ID = /^(sub|lsub)_[A-Za-z0-9_-]{3,64}$/;
const ORG_ID = /^00D[A-Za-z0-9]{12}([A-Za-z0-9]{3})?$/;

const hitRows = z.object({
  rows: z.array(z.object({ customer: z.string(), email: z.string(), matched: z.string() })),
});

/** `%`, `_` and `\` matched as themselves in a LIKE prefix. */
function likePrefix(text: string): string {
  return `${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

async function hits(db: Executor, query: SQL): Promise<CustomerHit[]> {
  const rows = hitRows.parse(await db.execute(query)).rows;
  // One line per customer: the first reason found.
  const seen = new Map<string, CustomerHit>();
  for (const row of rows) if (!seen.has(row.customer)) seen.set(row.customer, row);
  return [...seen.values()].slice(0, SEARCH_MAX_HITS);
}

/** Licences chosen by `where`, as hits. */
function licenceHits(where: SQL, matched: SQL): SQL {
  return sql`select l.email_normalized as customer, l.email, ${matched} as matched
    from licences l where ${where} order by l.created_at desc limit ${SEARCH_MAX_HITS * 2}`;
}

/**
 * Reads one line of text the way support reads a ticket and finds the customers it names, every
 * lookup through an index: an address in any spelling; a full licence key (by its keyed hash — a
 * key with a group missing or a typo finds nothing); a licence id; a Salesforce org id (15 or 18
 * characters); a quote, invoice, credit note or order number; a provider's customer or
 * subscription id; else the first letters of a company name.
 */
export function customerSearchQuery(
  secretKey: string,
  input: string,
): { kind: SearchKind; query: SQL | null } {
  const text = input.trim();
  if (text.length === 0 || text.length > SEARCH_MAX_LENGTH) return { kind: 'nothing', query: null };

  if (text.includes('@')) {
    const person = normalizeEmailAddress(text);
    return {
      kind: 'address',
      query: sql`select email_normalized as customer, email, 'licence …' || key_hint as matched
          from licences where email_normalized = ${person}
        union all
        select email_normalized, billing_email, 'invoice order ' || id
          from invoice_orders where email_normalized = ${person}
        union all
        select email_normalized, email, 'quote ' || number from quotes where email_normalized = ${person}
        union all
        select buyer_email_normalized, buyer_email, 'document ' || number
          from payment_documents where buyer_email_normalized = ${person}`,
    };
  }

  if (/^ORGS/i.test(text)) {
    const parsed = parseLicenceKey(text);
    if (!parsed.ok) return { kind: 'licence key', query: null };
    const keyHash = hashLicenceKey(secretKey, parsed.key);
    return {
      kind: 'licence key',
      query: licenceHits(sql`l.key_hash = ${keyHash}`, sql`'licence key …' || l.key_hint`),
    };
  }

  if (UUID.test(text)) {
    return {
      kind: 'licence id',
      query: licenceHits(sql`l.id = ${text.toLowerCase()}::uuid`, sql`'licence ' || l.id::text`),
    };
  }

  if (ORG_ID.test(text)) {
    const reading = readSalesforceOrgId(text);
    if (!reading.ok) return { kind: 'org id', query: null };
    return {
      kind: 'org id',
      query: licenceHits(
        sql`l.id in (select licence_id from licence_orgs where org_id = ${reading.id})`,
        sql`${`org ${reading.id}`}`,
      ),
    };
  }

  if (QUOTE_NUMBER.test(text)) {
    const number = text.toUpperCase();
    return {
      kind: 'quote',
      query: sql`select email_normalized as customer, email, 'quote ' || number as matched
          from quotes where number = ${number}`,
    };
  }

  if (DOCUMENT_NUMBER.test(text)) {
    const number = text.toUpperCase();
    return {
      kind: 'document',
      query: sql`select buyer_email_normalized as customer, buyer_email as email,
            'document ' || number as matched from payment_documents where number = ${number}
          union all
          select email_normalized, billing_email, 'invoice order ' || id || ', invoice ' || invoice_number
            from invoice_orders where invoice_number = ${number}`,
    };
  }

  if (ORDER_ID.test(text)) {
    return {
      kind: 'invoice order',
      query: sql`select email_normalized as customer, billing_email as email,
          'invoice order ' || id as matched from invoice_orders where id = ${text}`,
    };
  }

  if (CUSTOMER_ID.test(text)) {
    return {
      kind: 'provider customer',
      query: sql`select l.email_normalized as customer, l.email, ${`customer ${text}`} as matched
            from licences l where l.customer_id = ${text}
          union all
          select l.email_normalized, l.email, ${`customer ${text}`}
            from subscriptions s join licences l on l.id = s.licence_id
            where s.customer_id = ${text}
          union all
          select email_normalized, email, ${`customer ${text}`}
            from local_customers where id = ${text}`,
    };
  }

  if (SUBSCRIPTION_ID.test(text)) {
    return {
      kind: 'provider subscription',
      query: sql`select l.email_normalized as customer, l.email, ${`subscription ${text}`} as matched
            from licences l where l.subscription_id = ${text}
          union all
          select l.email_normalized, l.email, ${`subscription ${text}`}
            from subscriptions s join licences l on l.id = s.licence_id
            -- Both providers named: the primary key (provider, subscription_id) finds the row.
            where s.provider in ('stripe', 'local') and s.subscription_id = ${text}
          union all
          select buyer_email_normalized, buyer_email, ${`subscription ${text}`}
            from payment_documents where subscription_id = ${text}`,
    };
  }

  if (text.length < COMPANY_MIN_LENGTH) return { kind: 'nothing', query: null };
  const prefix = likePrefix(text);
  return {
    kind: 'company name',
    query: sql`(select email_normalized as customer, email, 'company ' || company_name as matched
          from quotes where lower(company_name) like ${prefix}
          order by created_at desc limit ${SEARCH_MAX_HITS})
        union all
        (select email_normalized, billing_email, 'company ' || (details ->> 'companyName')
          from invoice_orders where lower(details ->> 'companyName') like ${prefix}
          order by created_at desc limit ${SEARCH_MAX_HITS})
        union all
        (select buyer_email_normalized, buyer_email,
            'company ' || (document -> 'buyer' ->> 'companyName')
          from payment_documents where lower(document -> 'buyer' ->> 'companyName') like ${prefix}
          order by created_at desc limit ${SEARCH_MAX_HITS})`,
  };
}

/** Runs the one search (decision 227): the customers it names, each once, newest first. */
export async function searchCustomers(
  deps: { db: Executor; secretKey: string },
  input: string,
): Promise<CustomerSearchResult> {
  const { kind, query } = customerSearchQuery(deps.secretKey, input);
  return { kind, hits: query ? await hits(deps.db, query) : [] };
}
