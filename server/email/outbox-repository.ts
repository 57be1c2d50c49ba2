import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, lte, ne, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { emailOutbox, type OutboxStatus } from '../db/schema.ts';
import type { RenderedEmail } from './templates/render-email.ts';

export type OutboxRow = typeof emailOutbox.$inferSelect;

/** What a service hands to the outbox: a rendered e-mail plus its addressing. */
export interface QueuedEmail extends RenderedEmail {
  /** What kind of e-mail this is (`trial-licence`, `contact-message`…), for logs and file names. */
  kind: string;
  to: string;
  replyTo?: string | null;
}

export function createOutboxRepository(db: Executor) {
  return {
    /** Queues an e-mail; call it with the transaction of the change that causes the e-mail. */
    async enqueue(email: QueuedEmail, now: Date, tx: Executor = db): Promise<OutboxRow> {
      const [row] = await tx
        .insert(emailOutbox)
        .values({
          kind: email.kind,
          messageId: randomUUID(),
          toAddress: email.to,
          replyTo: email.replyTo ?? null,
          subject: email.subject,
          textBody: email.text,
          htmlBody: email.html,
          nextAttemptAt: now,
        })
        .returning();
      if (!row) throw new Error('outbox insert returned no row');
      return row;
    },

    /**
     * Claims up to `limit` due messages for one delivery attempt: rows locked by another worker are
     * skipped, and each claimed row is pushed `leaseMs` into the future, so no other worker takes
     * it while it is being sent (and a crashed worker's rows come back after the lease).
     */
    claimDue(now: Date, limit: number, leaseMs: number): Promise<OutboxRow[]> {
      const due = db
        .select({ id: emailOutbox.id })
        .from(emailOutbox)
        .where(and(eq(emailOutbox.status, 'pending'), lte(emailOutbox.nextAttemptAt, now)))
        .orderBy(asc(emailOutbox.nextAttemptAt), asc(emailOutbox.id))
        .limit(limit)
        .for('update', { skipLocked: true });
      return db
        .update(emailOutbox)
        .set({
          attempts: sql`${emailOutbox.attempts} + 1`,
          nextAttemptAt: new Date(now.getTime() + leaseMs),
        })
        .where(inArray(emailOutbox.id, due))
        .returning();
    },

    /** Marks a claimed message sent and drops its bodies (they may hold a licence key). */
    async markSent(claimed: OutboxRow, now: Date): Promise<void> {
      await db
        .update(emailOutbox)
        .set({ status: 'sent', sentAt: now, textBody: null, htmlBody: null, lastError: null })
        .where(ownClaim(claimed));
    },

    async markForRetry(claimed: OutboxRow, nextAttemptAt: Date, error: string): Promise<void> {
      await db
        .update(emailOutbox)
        .set({ nextAttemptAt, lastError: error })
        .where(ownClaim(claimed));
    },

    async markFailed(claimed: OutboxRow, error: string): Promise<void> {
      await db
        .update(emailOutbox)
        .set({ status: 'failed', lastError: error })
        .where(ownClaim(claimed));
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

    /** Makes an unsent message due now with a fresh set of attempts (operator retry). */
    async requeue(id: number, now: Date): Promise<boolean> {
      const rows = await db
        .update(emailOutbox)
        .set({ status: 'pending', attempts: 0, nextAttemptAt: now })
        .where(and(eq(emailOutbox.id, id), ne(emailOutbox.status, 'sent')))
        .returning({ id: emailOutbox.id });
      return rows.length === 1;
    },

    /** Requeues every failed message; returns how many. */
    async requeueFailed(now: Date): Promise<number> {
      const rows = await db
        .update(emailOutbox)
        .set({ status: 'pending', attempts: 0, nextAttemptAt: now })
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

/** Only the worker that made this attempt may record its outcome (a re-claim bumps `attempts`). */
function ownClaim(claimed: OutboxRow) {
  return and(
    eq(emailOutbox.id, claimed.id),
    eq(emailOutbox.attempts, claimed.attempts),
    eq(emailOutbox.status, 'pending'),
  );
}

export type OutboxRepository = ReturnType<typeof createOutboxRepository>;
