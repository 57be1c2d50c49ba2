import { createHash } from 'node:crypto';
import { and, asc, desc, eq, gt, gte, lt, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../db/database.ts';
import { auditEventDetails, auditEvents } from '../db/schema.ts';
import { auditSettings } from '../db/audit-settings.ts';
import { currentAuditContext } from './audit-context.ts';

/** The hash before the first event: the chain's anchor. */
export const GENESIS_HASH = '0'.repeat(64);

/** An event the code records itself, beside the ones the triggers write for changed rows. */
export interface AuditEventInput {
  /** `licence.org_released`, `authz.denied`, `privacy.erased`, … */
  action: string;
  targetType: string;
  targetId: string;
  /** The address of the person the event concerns, kept in its details only. */
  subjectEmail?: string | null;
  before?: unknown;
  after?: unknown;
}

/**
 * Records one event in the caller's transaction, through the database's `audit_append` (the one
 * writer of the chain, decision 224), attributed to the current audit context. Returns its id.
 */
export async function recordAuditEvent(db: Executor, event: AuditEventInput): Promise<number> {
  return db.transaction(async (tx) => {
    const context = currentAuditContext();
    if (context) await tx.execute(auditSettings(context));
    const json = (value: unknown) =>
      value === undefined || value === null ? null : JSON.stringify(value);
    const result = await tx.execute(
      sql`select audit_append(${event.action}, ${event.targetType}, ${event.targetId},
        ${event.subjectEmail ?? null}, ${json(event.before)}::jsonb, ${json(event.after)}::jsonb)::text as id`,
    );
    const [row] = z.object({ rows: z.array(z.object({ id: z.string() })) }).parse(result).rows;
    if (!row) throw new Error('audit_append returned no id');
    return Number(row.id);
  });
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The hash of an event: the previous hash and the event's own fields, one per line. */
export function eventHash(event: {
  prevHash: string;
  id: number;
  occurredAt: Date;
  actor: string;
  action: string;
  targetType: string;
  targetId: string;
  requestId: string | null;
  detailsDigest: string;
}): string {
  return sha256(
    [
      event.prevHash,
      String(event.id),
      event.occurredAt.toISOString(),
      event.actor,
      event.action,
      event.targetType,
      event.targetId,
      event.requestId ?? '',
      event.detailsDigest,
    ].join('\n'),
  );
}

/** The digest of an event's details as the chain holds it: salt and the details' JSON text. */
export function detailsDigest(salt: string, detailsText: string): string {
  return sha256(`${salt}|${detailsText}`);
}

const chainRow = z.object({
  id: z.coerce.number(),
  occurred_at: z.coerce.date(),
  actor: z.string(),
  action: z.string(),
  target_type: z.string(),
  target_id: z.string(),
  request_id: z.string().nullable(),
  details_digest: z.string(),
  prev_hash: z.string(),
  hash: z.string(),
  salt: z.string().nullable(),
  details_text: z.string().nullable(),
});

export type ChainVerdict =
  | { ok: true; events: number; erasedDetails: number; head: string; lastId: number | null }
  | { ok: false; events: number; brokenAt: number; problem: string };

const PAGE = 5_000;

/**
 * Walks the whole chain in id order and recomputes every hash and every digest of details still
 * held. The first row that does not follow from the one before (edited, inserted or removed
 * between) is named; details an erasure removed are counted, not checked.
 */
export async function verifyAuditChain(db: Executor): Promise<ChainVerdict> {
  let prev = GENESIS_HASH;
  let after = 0;
  let events = 0;
  let erasedDetails = 0;
  let lastId: number | null = null;
  for (;;) {
    const result = await db.execute(sql`select e.id::text as id, e.occurred_at, e.actor,
        e.action, e.target_type, e.target_id, e.request_id, e.details_digest, e.prev_hash, e.hash,
        d.salt, case when d.event_id is null then null
          else audit_details_text(d.actor, d.reason, d.subject_email, d.before, d.after) end
          as details_text
      from audit_events e left join audit_event_details d on d.event_id = e.id
      where e.id > ${after} order by e.id limit ${PAGE}`);
    const rows = z.object({ rows: z.array(chainRow) }).parse(result).rows;
    for (const row of rows) {
      events += 1;
      const broken = (problem: string): ChainVerdict => ({
        ok: false,
        events,
        brokenAt: row.id,
        problem,
      });
      if (row.prev_hash !== prev) {
        return broken('it does not follow the event before it (an event was removed or inserted)');
      }
      if (row.salt === null || row.details_text === null) erasedDetails += 1;
      else if (detailsDigest(row.salt, row.details_text) !== row.details_digest) {
        return broken('its details were changed');
      }
      const hash = eventHash({
        prevHash: row.prev_hash,
        id: row.id,
        occurredAt: row.occurred_at,
        actor: row.actor,
        action: row.action,
        targetType: row.target_type,
        targetId: row.target_id,
        requestId: row.request_id,
        detailsDigest: row.details_digest,
      });
      if (hash !== row.hash) return broken('its fields were changed');
      prev = row.hash;
      lastId = row.id;
    }
    const last = rows.at(-1);
    if (!last || rows.length < PAGE) break;
    after = last.id;
  }
  return { ok: true, events, erasedDetails, head: prev, lastId };
}

export interface AuditEventView {
  id: number;
  occurredAt: Date;
  actor: string;
  action: string;
  targetType: string;
  targetId: string;
  requestId: string | null;
  hash: string;
  /** Null once an erasure or the retention job removed them. */
  details: {
    actor: string;
    reason: string | null;
    subjectEmail: string | null;
    before: unknown;
    after: unknown;
  } | null;
}

function view(row: {
  event: typeof auditEvents.$inferSelect;
  details: typeof auditEventDetails.$inferSelect | null;
}): AuditEventView {
  const { event, details } = row;
  return {
    id: event.id,
    occurredAt: event.occurredAt,
    actor: event.actor,
    action: event.action,
    targetType: event.targetType,
    targetId: event.targetId,
    requestId: event.requestId,
    hash: event.hash,
    details: details
      ? {
          actor: details.actor,
          reason: details.reason,
          subjectEmail: details.subjectEmail,
          before: details.before,
          after: details.after,
        }
      : null,
  };
}

export function createAuditLogRepository(db: Executor) {
  const select = () =>
    db
      .select({ event: auditEvents, details: auditEventDetails })
      .from(auditEvents)
      .leftJoin(auditEventDetails, eq(auditEventDetails.eventId, auditEvents.id));
  return {
    /** The events of one target, newest first. */
    async ofTarget(targetType: string, targetId: string, limit = 100): Promise<AuditEventView[]> {
      const rows = await select()
        .where(and(eq(auditEvents.targetType, targetType), eq(auditEvents.targetId, targetId)))
        .orderBy(desc(auditEvents.id))
        .limit(limit);
      return rows.map(view);
    },

    /** The newest events, newest first. */
    async newest(limit: number): Promise<AuditEventView[]> {
      const rows = await select().orderBy(desc(auditEvents.id)).limit(limit);
      return rows.map(view);
    },

    /** Events in [from, to), oldest first, a page after `afterId`. */
    async between(from: Date, to: Date, afterId: number, limit: number): Promise<AuditEventView[]> {
      const rows = await select()
        .where(
          and(
            gte(auditEvents.occurredAt, from),
            lt(auditEvents.occurredAt, to),
            gt(auditEvents.id, afterId),
          ),
        )
        .orderBy(asc(auditEvents.id))
        .limit(limit);
      return rows.map(view);
    },
  };
}

/** Whose audit details: a person's normalized address and the records that were theirs. */
export interface AuditSubject {
  normalized: string;
  targets: ReadonlyArray<{ type: string; ids: readonly string[] }>;
}

function detailsOfSubject(subject: AuditSubject): SQL {
  const targets = subject.targets.filter((target) => target.ids.length > 0);
  const byTarget = targets.map(
    (target) =>
      sql`(e.target_type = ${target.type} and e.target_id in (${sql.join(
        target.ids.map((id) => sql`${id}`),
        sql`, `,
      )}))`,
  );
  return sql`(d.subject_email_normalized = ${subject.normalized}
    or d.actor = ${`customer:${subject.normalized}`}
    ${byTarget.length > 0 ? sql`or exists (select 1 from audit_events e where e.id = d.event_id and (${sql.join(byTarget, sql` or `)}))` : sql``})`;
}

const detailsRow = z.object({
  event_id: z.coerce.number(),
  occurred_at: z.coerce.date(),
  actor: z.string(),
  action: z.string(),
  target_type: z.string(),
  target_id: z.string(),
  reason: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
});

/** The audit events whose details concern `subject`, oldest first (an export, Art. 15). */
export async function auditDetailsOf(db: Executor, subject: AuditSubject) {
  const result = await db.execute(sql`select d.event_id::text as event_id, d.occurred_at,
      d.actor, e.action, e.target_type, e.target_id, d.reason, d.before, d.after
    from audit_event_details d join audit_events e on e.id = d.event_id
    where ${detailsOfSubject(subject)} order by d.event_id`);
  return z
    .object({ rows: z.array(detailsRow) })
    .parse(result)
    .rows.map((row) => ({
      id: row.event_id,
      occurredAt: row.occurred_at,
      actor: row.actor,
      action: row.action,
      target: { type: row.target_type, id: row.target_id },
      reason: row.reason,
      before: row.before ?? null,
      after: row.after ?? null,
    }));
}

/** Lets the rest of the transaction delete audit details (an erasure, the retention job). */
export async function allowAuditErasure(tx: Executor): Promise<void> {
  await tx.execute(sql`select set_config('orgsmith.audit_erasure', 'on', true)`);
}

/**
 * Deletes the details of every audit event that concerns `subject` (an erasure, decision 224), in
 * the caller's transaction; the events themselves stay, so the chain still verifies. Returns how
 * many were deleted.
 */
export async function eraseAuditDetails(tx: Executor, subject: AuditSubject): Promise<number> {
  await allowAuditErasure(tx);
  const result = await tx.execute(sql`with gone as (
      delete from audit_event_details d where ${detailsOfSubject(subject)} returning 1
    ) select count(*)::int as deleted from gone`);
  const [row] = z
    .object({ rows: z.array(z.object({ deleted: z.coerce.number() })) })
    .parse(result).rows;
  await tx.execute(sql`select set_config('orgsmith.audit_erasure', 'off', true)`);
  return row?.deleted ?? 0;
}
