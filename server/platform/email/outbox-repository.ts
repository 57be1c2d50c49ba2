import { randomUUID } from 'node:crypto';
import {
  and,
  asc,
  desc,
  eq,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  ne,
  or,
  sql,
} from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../db/database.ts';
import { emailOutbox, type OutboxStatus, type StoredAttachment } from '../db/schema.ts';

/** An outbox row's states, for the commands that filter by them. */
export { outboxStatuses, type OutboxStatus } from '../db/schema.ts';
import type { EmailAttachment } from './outgoing-email.ts';
import type { RenderedEmail } from './render-email.ts';

export type OutboxRow = typeof emailOutbox.$inferSelect;

/** What a service hands to the outbox: a rendered e-mail plus its addressing. */
export interface QueuedEmail extends RenderedEmail {
  /** What kind of e-mail this is (`trial-licence`, `contact-message`…), for logs and file names. */
  kind: string;
  to: string;
  replyTo?: string | null;
  /** Files sent with it, kept until it is sent ({@link MAX_ATTACHMENT_BYTES} in all). */
  attachments?: readonly EmailAttachment[];
}

/** What the attachments of one message may weigh together: relays commonly refuse above 10 MB. */
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;

/** A file name a mail client shows as written: no path, no control characters, not too long. */
const instant = z.union([z.date(), z.string()]).nullable();
/** The answer of {@link createOutboxRepository}'s `nextClaimable`. */
const nextClaimableRow = z.object({
  rows: z.array(z.object({ due_at: instant, lease_ends_at: instant })),
});

const ATTACHMENT_NAME = /^[\w][\w .()-]{0,99}$/;

function storedAttachments(
  attachments: readonly EmailAttachment[] | undefined,
): StoredAttachment[] | null {
  if (!attachments || attachments.length === 0) return null;
  const bytes = attachments.reduce((sum, attachment) => sum + attachment.content.byteLength, 0);
  if (bytes > MAX_ATTACHMENT_BYTES) {
    throw new Error(`e-mail attachments of ${bytes} bytes exceed ${MAX_ATTACHMENT_BYTES}`);
  }
  return attachments.map((attachment) => {
    if (!ATTACHMENT_NAME.test(attachment.filename)) {
      throw new Error(`not an attachment name: ${JSON.stringify(attachment.filename)}`);
    }
    return {
      filename: attachment.filename,
      contentType: attachment.contentType,
      contentBase64: attachment.content.toString('base64'),
    };
  });
}

/** A claimed message's attachments, as the transport sends them. */
export function attachmentsOf(row: OutboxRow): EmailAttachment[] {
  return (row.attachments ?? []).map((stored) => ({
    filename: stored.filename,
    contentType: stored.contentType,
    content: Buffer.from(stored.contentBase64, 'base64'),
  }));
}

export function createOutboxRepository(db: Executor) {
  return {
    /** Queues an e-mail; call it with the transaction of the change that causes the e-mail. */
    async enqueue(email: QueuedEmail, now: Date): Promise<OutboxRow> {
      const [row] = await db
        .insert(emailOutbox)
        .values({
          kind: email.kind,
          messageId: randomUUID(),
          toAddress: email.to,
          replyTo: email.replyTo ?? null,
          subject: email.subject,
          textBody: email.text,
          htmlBody: email.html,
          attachments: storedAttachments(email.attachments),
          nextAttemptAt: now,
        })
        .returning();
      if (!row) throw new Error('outbox insert returned no row');
      return row;
    },

    /**
     * Claims up to `limit` due messages for one delivery attempt: rows locked by another worker are
     * skipped, and each claimed row gets a lease of `leaseMs` and a fresh claim token, so no other
     * worker takes it while it is being sent. The sender extends the lease while it works
     * ({@link extendLeases}); a dead sender's rows come back when it runs out, or at once when the
     * embedded database is opened again ({@link releaseAllLeases}).
     *
     * A message whose lease ran out is in doubt: its sender may have handed it to the relay and
     * not been able to say so. `takeOver: false` leaves such messages alone (decision 194); only a
     * worker that has reached the database for a while takes them over.
     */
    async claimDue(
      now: Date,
      limit: number,
      leaseMs: number,
      options: { takeOver?: boolean } = {},
    ): Promise<OutboxRow[]> {
      const free =
        options.takeOver === false
          ? isNull(emailOutbox.leasedUntil)
          : or(isNull(emailOutbox.leasedUntil), lte(emailOutbox.leasedUntil, now));
      const due = db
        .select({ id: emailOutbox.id })
        .from(emailOutbox)
        .where(and(eq(emailOutbox.status, 'pending'), lte(emailOutbox.nextAttemptAt, now), free))
        .orderBy(asc(emailOutbox.nextAttemptAt), asc(emailOutbox.id))
        .limit(limit)
        .for('update', { skipLocked: true });
      const claimed = await db
        .update(emailOutbox)
        .set({
          attempts: sql`${emailOutbox.attempts} + 1`,
          leasedUntil: new Date(now.getTime() + leaseMs),
          claimToken: sql`gen_random_uuid()`,
        })
        .where(inArray(emailOutbox.id, due))
        .returning();
      // RETURNING keeps no order: send the oldest first.
      return claimed.sort(
        (a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime() || a.id - b.id,
      );
    },

    /**
     * When the next pending message can be claimed: the earliest due time of an unleased one,
     * or the earliest lease to run out (one statement; the worker sleeps until then, not a
     * whole fallback poll, decision 243). Undefined when nothing is pending.
     */
    async nextClaimable(): Promise<{ dueAt?: Date; leaseEndsAt?: Date }> {
      const result = await db.execute(sql`
        select
          (select ${emailOutbox.nextAttemptAt} from ${emailOutbox}
            where ${emailOutbox.status} = 'pending' and ${emailOutbox.leasedUntil} is null
            order by ${emailOutbox.nextAttemptAt} limit 1) as due_at,
          (select min(${emailOutbox.leasedUntil}) from ${emailOutbox}
            where ${emailOutbox.status} = 'pending' and ${emailOutbox.leasedUntil} is not null) as lease_ends_at`);
      const row = nextClaimableRow.parse(result).rows[0];
      const asDate = (value: Date | string | null | undefined) =>
        value === null || value === undefined ? undefined : new Date(value);
      return { dueAt: asDate(row?.due_at), leaseEndsAt: asDate(row?.lease_ends_at) };
    },

    /** Extends this worker's leases on messages it still holds; returns how many it holds. */
    async extendLeases(claimed: readonly OutboxRow[], until: Date): Promise<number> {
      if (claimed.length === 0) return 0;
      const rows = await db
        .update(emailOutbox)
        .set({ leasedUntil: until })
        .where(or(...claimed.map(ownClaim)))
        .returning({ id: emailOutbox.id });
      return rows.length;
    },

    /** Gives back a claim that was not attempted (shutdown): due again, the attempt not counted. */
    async release(claimed: OutboxRow): Promise<boolean> {
      const rows = await db
        .update(emailOutbox)
        .set({ leasedUntil: null, claimToken: null, attempts: sql`${emailOutbox.attempts} - 1` })
        .where(ownClaim(claimed))
        .returning({ id: emailOutbox.id });
      return rows.length === 1;
    },

    /**
     * Releases every lease: only for a database that no other process can use (the embedded one,
     * behind its data-dir lock), where any lease left is a dead process's. Returns how many.
     */
    async releaseAllLeases(): Promise<number> {
      const rows = await db
        .update(emailOutbox)
        .set({ leasedUntil: null, claimToken: null })
        .where(and(eq(emailOutbox.status, 'pending'), isNotNull(emailOutbox.leasedUntil)))
        .returning({ id: emailOutbox.id });
      return rows.length;
    },

    /** The oldest due message that is still unsent: how far behind delivery is (`/readyz`). */
    async oldestDue(now: Date): Promise<Date | undefined> {
      const [row] = await db
        .select({ nextAttemptAt: emailOutbox.nextAttemptAt, createdAt: emailOutbox.createdAt })
        .from(emailOutbox)
        .where(and(eq(emailOutbox.status, 'pending'), lte(emailOutbox.nextAttemptAt, now)))
        .orderBy(asc(emailOutbox.createdAt))
        .limit(1);
      return row?.createdAt;
    },

    /** Unsent messages and the oldest due one, in one statement over the pending index (`/metrics`). */
    async backlog(now: Date): Promise<{ pending: number; oldestDue: Date | undefined }> {
      const [row] = await db
        .select({
          pending: sql<number>`count(*)`.mapWith(Number),
          oldestDue:
            sql<Date | null>`min(${emailOutbox.createdAt}) filter (where ${lte(emailOutbox.nextAttemptAt, now)})`.mapWith(
              emailOutbox.createdAt,
            ),
        })
        .from(emailOutbox)
        .where(eq(emailOutbox.status, 'pending'));
      return { pending: row?.pending ?? 0, oldestDue: row?.oldestDue ?? undefined };
    },

    /**
     * Marks a claimed message sent and drops its bodies (they may hold a licence key) and its
     * attachments (a buyer's document). The claim's token stays on the row, so writing this again
     * (its first reply lost with the connection) still finds it. False when the claim was no
     * longer this worker's: another took the message over meanwhile.
     */
    async markSent(
      claimed: OutboxRow,
      now: Date,
      sealed?: { content: string; until: Date },
    ): Promise<boolean> {
      const rows = await db
        .update(emailOutbox)
        .set({
          status: 'sent',
          sentAt: now,
          leasedUntil: null,
          textBody: null,
          htmlBody: null,
          attachments: null,
          lastError: null,
          // A copy for a resend, sealed, for a while (decision 235).
          sealedContent: sealed?.content ?? null,
          sealedUntil: sealed?.until ?? null,
        })
        .where(recordable(claimed, 'sent'))
        .returning({ id: emailOutbox.id });
      return rows.length === 1;
    },

    async markForRetry(claimed: OutboxRow, nextAttemptAt: Date, error: string): Promise<boolean> {
      const rows = await db
        .update(emailOutbox)
        .set({ nextAttemptAt, leasedUntil: null, lastError: error })
        .where(ownClaim(claimed))
        .returning({ id: emailOutbox.id });
      return rows.length === 1;
    },

    async markFailed(claimed: OutboxRow, error: string): Promise<boolean> {
      const rows = await db
        .update(emailOutbox)
        .set({ status: 'failed', leasedUntil: null, lastError: error })
        .where(recordable(claimed, 'failed'))
        .returning({ id: emailOutbox.id });
      return rows.length === 1;
    },

    /** The latest messages in the given states, newest first (operator view). */
    listRecent(options: { statuses: OutboxStatus[]; limit: number }): Promise<OutboxRow[]> {
      return db
        .select()
        .from(emailOutbox)
        .where(inArray(emailOutbox.status, options.statuses))
        .orderBy(desc(emailOutbox.createdAt), desc(emailOutbox.id))
        .limit(options.limit);
    },

    /**
     * A page of the e-mail log, newest first (the console, decision 235): by state, by recipient
     * (its normalized address) and before a message id (the page cursor).
     */
    listPage(options: {
      status?: OutboxStatus;
      toNormalized?: string;
      before?: number;
      limit: number;
    }): Promise<OutboxRow[]> {
      return db
        .select()
        .from(emailOutbox)
        .where(
          and(
            options.status ? eq(emailOutbox.status, options.status) : undefined,
            options.toNormalized
              ? eq(emailOutbox.toAddressNormalized, options.toNormalized)
              : undefined,
            options.before !== undefined ? lt(emailOutbox.id, options.before) : undefined,
          ),
        )
        .orderBy(desc(emailOutbox.id))
        .limit(options.limit);
    },

    /** Makes a failed message due now with a fresh set of attempts; false if it is not failed. */
    async retryFailed(id: number, now: Date): Promise<OutboxRow | undefined> {
      const [row] = await db
        .update(emailOutbox)
        .set({
          status: 'pending',
          attempts: 0,
          nextAttemptAt: now,
          leasedUntil: null,
          claimToken: null,
        })
        .where(and(eq(emailOutbox.id, id), eq(emailOutbox.status, 'failed')))
        .returning();
      return row;
    },

    /** Queues a copy of a sent message (an operator's resend): same content, a new Message-ID. */
    async enqueueCopy(
      original: OutboxRow,
      content: {
        textBody: string | null;
        htmlBody: string | null;
        attachments: StoredAttachment[] | null;
      },
      now: Date,
    ): Promise<OutboxRow> {
      const [row] = await db
        .insert(emailOutbox)
        .values({
          kind: original.kind,
          messageId: randomUUID(),
          toAddress: original.toAddress,
          replyTo: original.replyTo,
          subject: original.subject,
          textBody: content.textBody,
          htmlBody: content.htmlBody,
          attachments: content.attachments,
          nextAttemptAt: now,
          createdAt: now,
          resentFrom: original.id,
        })
        .returning();
      if (!row) throw new Error('outbox insert returned no row');
      return row;
    },

    /**
     * Resends queued to one address since `since` (the resend limit, decision 235), after taking
     * the address's lock for the rest of the transaction, so concurrent resends count each other.
     */
    async lockAndCountResendsTo(normalizedAddress: string, since: Date): Promise<number> {
      await db.execute(
        sql`select pg_advisory_xact_lock(hashtextextended(${`email-resend:${normalizedAddress}`}, 0))`,
      );
      const [row] = await db
        .select({ count: sql<number>`count(*)`.mapWith(Number) })
        .from(emailOutbox)
        .where(
          and(
            eq(emailOutbox.toAddressNormalized, normalizedAddress),
            isNotNull(emailOutbox.resentFrom),
            gte(emailOutbox.createdAt, since),
          ),
        );
      return row?.count ?? 0;
    },

    /** Drops sealed copies past their window; returns how many (the retention job). */
    async dropExpiredSeals(now: Date): Promise<number> {
      const rows = await db
        .update(emailOutbox)
        .set({ sealedContent: null, sealedUntil: null })
        .where(and(isNotNull(emailOutbox.sealedContent), lte(emailOutbox.sealedUntil, now)))
        .returning({ id: emailOutbox.id });
      return rows.length;
    },

    /** Makes an unsent message due now with a fresh set of attempts (operator retry). */
    async requeue(id: number, now: Date): Promise<boolean> {
      const rows = await db
        .update(emailOutbox)
        .set({
          status: 'pending',
          attempts: 0,
          nextAttemptAt: now,
          leasedUntil: null,
          claimToken: null,
        })
        .where(and(eq(emailOutbox.id, id), ne(emailOutbox.status, 'sent')))
        .returning({ id: emailOutbox.id });
      return rows.length === 1;
    },

    /** Requeues every failed message; returns how many. */
    async requeueFailed(now: Date): Promise<number> {
      const rows = await db
        .update(emailOutbox)
        .set({
          status: 'pending',
          attempts: 0,
          nextAttemptAt: now,
          leasedUntil: null,
          claimToken: null,
        })
        .where(eq(emailOutbox.status, 'failed'))
        .returning({ id: emailOutbox.id });
      return rows.length;
    },

    async findById(id: number): Promise<OutboxRow | undefined> {
      const [row] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
      return row;
    },
  };
}

/**
 * Only the worker that made this attempt may record its outcome: every claim draws a new token
 * (a requeue may set `attempts` back, so it cannot tell claims apart).
 */
function ownClaim(claimed: OutboxRow) {
  return and(sameClaim(claimed), eq(emailOutbox.status, 'pending'));
}

/** {@link ownClaim}, or the same outcome already recorded by this claim (a repeated write). */
function recordable(claimed: OutboxRow, outcome: 'sent' | 'failed') {
  return and(sameClaim(claimed), inArray(emailOutbox.status, ['pending', outcome]));
}

function sameClaim(claimed: OutboxRow) {
  return and(
    eq(emailOutbox.id, claimed.id),
    claimed.claimToken === null ? sql`false` : eq(emailOutbox.claimToken, claimed.claimToken),
  );
}

export type OutboxRepository = ReturnType<typeof createOutboxRepository>;
