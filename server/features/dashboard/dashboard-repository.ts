import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '#server/platform/db/database.ts';
import type { OpenInvoiceSum } from '#shared/contracts/console-dashboard.ts';
import type {
  SubscriptionChange,
  SubscriptionHistory,
  SubscriptionTerms,
  TrialStart,
} from './dashboard-figures.ts';

/**
 * The dashboard's reads (decision 234), all from tables that already exist: a subscription's terms
 * over time from the audit log's before/after of `subscriptions` (migration 0940, kept three years
 * after the year's end), trials from `trial_claims` and the audit log's `licence.converted`,
 * licences, our invoices (`payment_documents`) and the orgs seen (`licence_orgs`).
 */

const termsSchema = z.object({
  status: z.string(),
  quantity: z.coerce.number(),
  billing_period: z.enum(['monthly', 'yearly']),
  currency: z.enum(['USD', 'EUR']),
  ended_at: z.string().nullable().optional(),
});

function termsOf(value: unknown): SubscriptionTerms | null {
  const parsed = termsSchema.safeParse(value);
  if (!parsed.success) return null;
  const row = parsed.data;
  return {
    status: row.status,
    quantity: row.quantity,
    billingPeriod: row.billing_period,
    currency: row.currency,
    endedAt: row.ended_at ?? null,
  };
}

const eventRows = z.object({
  rows: z.array(
    z.object({
      target_id: z.string(),
      occurred_at: z.coerce.date(),
      action: z.string(),
      has_details: z.boolean(),
      before: z.unknown(),
      after: z.unknown(),
    }),
  ),
});

const currentRows = z.object({
  rows: z.array(
    z.object({
      subscription_id: z.string(),
      created_at: z.coerce.date(),
      status: z.string(),
      quantity: z.coerce.number(),
      billing_period: z.enum(['monthly', 'yearly']),
      currency: z.enum(['USD', 'EUR']),
      ended_at: z.coerce.date().nullable(),
    }),
  ),
});

type EventRow = z.infer<typeof eventRows>['rows'][number];

/**
 * Each subscription's history up to `to`. The terms after an event are its `after` (none once
 * deleted); where the retention job removed an event's details, the next event's `before` (or,
 * for the last, the row as it is now) stands in. A subscription older than the audit log starts
 * with the `before` of its first event; one with no event at all, with its row from `created_at`.
 */
export async function subscriptionHistories(
  db: Executor,
  to: Date,
): Promise<SubscriptionHistory[]> {
  const events = eventRows.parse(
    await db.execute(sql`select e.target_id, e.occurred_at, e.action,
        d.event_id is not null as has_details, d.before, d.after
      from audit_events e left join audit_event_details d on d.event_id = e.id
      where e.target_type = 'subscription' and e.occurred_at < ${to.toISOString()}
      order by e.id`),
  ).rows;
  const current = currentRows.parse(
    await db.execute(sql`select subscription_id, created_at, status, quantity, billing_period,
        currency, ended_at from subscriptions`),
  ).rows;
  const now = new Map(
    current.map((row) => [
      row.subscription_id,
      {
        createdAt: row.created_at,
        terms: {
          status: row.status,
          quantity: row.quantity,
          billingPeriod: row.billing_period,
          currency: row.currency,
          endedAt: row.ended_at ? row.ended_at.toISOString() : null,
        } satisfies SubscriptionTerms,
      },
    ]),
  );
  const byId = new Map<string, EventRow[]>();
  for (const event of events) {
    const list = byId.get(event.target_id) ?? [];
    list.push(event);
    byId.set(event.target_id, list);
  }
  const histories: SubscriptionHistory[] = [];
  for (const [id, list] of byId) {
    const first = list[0];
    const initial =
      first && first.has_details && !first.action.endsWith('.created')
        ? termsOf(first.before)
        : null;
    const changes: SubscriptionChange[] = list.map((event, index) => {
      if (event.action.endsWith('.deleted')) return { at: event.occurred_at, terms: null };
      if (event.has_details) return { at: event.occurred_at, terms: termsOf(event.after) };
      const next = list[index + 1];
      const terms = next
        ? next.has_details
          ? termsOf(next.before)
          : null
        : (now.get(id)?.terms ?? null);
      return { at: event.occurred_at, terms };
    });
    histories.push({ id, initial, changes });
  }
  for (const [id, row] of now) {
    if (byId.has(id) || row.createdAt >= to) continue;
    histories.push({ id, initial: null, changes: [{ at: row.createdAt, terms: row.terms }] });
  }
  return histories;
}

const trialRows = z.object({
  rows: z.array(
    z.object({ claimed_at: z.coerce.date(), converted_at: z.coerce.date().nullable() }),
  ),
});

/**
 * Trials started in [from, to): one claim per address whose first licence was a trial (claims
 * outlive their licences), with the first time that licence was converted to paid.
 */
export async function trialStarts(db: Executor, from: Date, to: Date): Promise<TrialStart[]> {
  const result = await db.execute(sql`select c.claimed_at,
      (select min(e.occurred_at) from audit_events e
        where e.target_type = 'licence' and e.target_id = c.first_licence_id::text
          and e.action = 'licence.converted') as converted_at
    from trial_claims c
    where c.first_licence_type = 'Trial'
      and c.claimed_at >= ${from.toISOString()} and c.claimed_at < ${to.toISOString()}`);
  return trialRows
    .parse(result)
    .rows.map((row) => ({ startedAt: row.claimed_at, convertedAt: row.converted_at }));
}

const editionCounts = z.object({
  rows: z.array(z.object({ edition: z.string(), count: z.coerce.number() })),
});

/** Paid licences active now (not revoked), by edition. */
export async function activePaidLicences(
  db: Executor,
): Promise<{ Starter: number; Pro: number; Enterprise: number }> {
  const rows = editionCounts.parse(
    await db.execute(sql`select edition, count(*) as count from licences
      where type = 'Paid' and status = 'Active' and revoked_at is null group by edition`),
  ).rows;
  const counts = { Starter: 0, Pro: 0, Enterprise: 0 };
  for (const row of rows) {
    if (row.edition === 'Starter' || row.edition === 'Pro' || row.edition === 'Enterprise') {
      counts[row.edition] = row.count;
    }
  }
  return counts;
}

const owedRows = z.object({
  rows: z.array(
    z.object({
      currency: z.enum(['USD', 'EUR']),
      owed: z.coerce.number(),
      due_on: z.string().nullable(),
    }),
  ),
});

const stripeOwedRows = z.object({
  rows: z.array(
    z.object({
      currency: z.enum(['USD', 'EUR']),
      owed: z.coerce.number().nullable(),
      due_at: z.coerce.date(),
    }),
  ),
});

/**
 * Invoices still owed at `now`, per currency: ours (the local provider's documents, decision
 * 220: the gross less its credit notes, unpaid; overdue once their due day is before today's) and
 * Stripe's open invoices as the subscriptions' mirror holds them (what is still owed, decision
 * 245; overdue once their due time has passed). A Stripe invoice mirrored before its amount was
 * kept counts with 0 until the next snapshot.
 */
export async function openInvoices(db: Executor, now: Date): Promise<OpenInvoiceSum[]> {
  const today = now.toISOString().slice(0, 10);
  const [ours, stripe] = await Promise.all([
    db.execute(sql`select i.currency, i.document -> 'payment' ->> 'dueOn' as due_on,
        i.gross_minor - coalesce((select sum(c.gross_minor) from payment_documents c
          where c.kind = 'credit_note' and c.credits_number = i.number), 0) as owed
      from payment_documents i
      where i.kind = 'invoice' and i.paid_at is null`),
    db.execute(sql`select currency, open_invoice_amount_minor as owed, open_invoice_due_at as due_at
      from subscriptions
      where provider = 'stripe' and collection = 'invoice' and open_invoice_id is not null
        and open_invoice_due_at is not null and ended_at is null`),
  ]);
  const owed = [
    ...owedRows.parse(ours).rows.map((row) => ({
      currency: row.currency,
      owed: row.owed,
      overdue: row.due_on !== null && row.due_on < today,
      counted: row.owed > 0,
    })),
    ...stripeOwedRows.parse(stripe).rows.map((row) => ({
      currency: row.currency,
      owed: row.owed ?? 0,
      overdue: row.due_at < now,
      counted: row.owed === null || row.owed > 0,
    })),
  ];
  const sums = new Map<string, OpenInvoiceSum>();
  for (const row of owed) {
    if (!row.counted) continue;
    const sum = sums.get(row.currency) ?? {
      currency: row.currency,
      open: 0,
      openMinor: 0,
      overdue: 0,
      overdueMinor: 0,
    };
    sum.open++;
    sum.openMinor += row.owed;
    if (row.overdue) {
      sum.overdue++;
      sum.overdueMinor += row.owed;
    }
    sums.set(row.currency, sum);
  }
  return [...sums.values()].sort((a, b) => a.currency.localeCompare(b.currency));
}

const countRow = z.object({
  rows: z.array(z.object({ open: z.coerce.number(), overdue: z.coerce.number() })),
});

/** Subscriptions paid by invoice whose provider reports an open invoice, and those past due. */
export async function openInvoiceSubscriptions(
  db: Executor,
  now: Date,
): Promise<{ open: number; overdue: number }> {
  const [row] = countRow.parse(
    await db.execute(sql`select count(*) as open,
        count(*) filter (where open_invoice_due_at < ${now.toISOString()}) as overdue
      from subscriptions
      where collection = 'invoice' and open_invoice_id is not null and ended_at is null`),
  ).rows;
  return { open: row?.open ?? 0, overdue: row?.overdue ?? 0 };
}

const spanRows = z.object({
  rows: z.array(z.object({ first_seen_at: z.coerce.date(), last_seen_at: z.coerce.date() })),
});

/** Each org's span of use ([first seen, last seen]) that overlaps [from, to). */
export async function orgSpans(
  db: Executor,
  from: Date,
  to: Date,
): Promise<{ firstSeenAt: Date; lastSeenAt: Date }[]> {
  return spanRows
    .parse(
      await db.execute(sql`select first_seen_at, last_seen_at from licence_orgs
        where first_seen_at < ${to.toISOString()} and last_seen_at >= ${from.toISOString()}`),
    )
    .rows.map((row) => ({ firstSeenAt: row.first_seen_at, lastSeenAt: row.last_seen_at }));
}
