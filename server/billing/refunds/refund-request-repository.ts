import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Database } from '#server/platform/db/database.ts';
import { licences, operators, refundRequests, subscriptions } from '#server/platform/db/schema.ts';

export type RefundRequestRow = typeof refundRequests.$inferSelect;
export type NewRefundRequest = typeof refundRequests.$inferInsert;

/**
 * The refunds asked for in the console (decision 233). Each change in a transaction of its own,
 * where the audit log sees who acts (decision 224).
 */
export function createRefundRequestRepository(db: Database) {
  return {
    /** The new request, or undefined when a live one has its idempotency key already. */
    async insert(request: NewRefundRequest): Promise<RefundRequestRow | undefined> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(refundRequests)
          .values(request)
          .onConflictDoNothing()
          .returning();
        return row;
      });
    },

    /** The live (not rejected, not failed) request of a form. */
    async findLive(idempotencyKey: string): Promise<RefundRequestRow | undefined> {
      const [row] = await db
        .select()
        .from(refundRequests)
        .where(
          and(
            eq(refundRequests.idempotencyKey, idempotencyKey),
            sql`${refundRequests.status} not in ('rejected', 'failed')`,
          ),
        );
      return row;
    },

    async findById(id: string): Promise<RefundRequestRow | undefined> {
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id))
        return undefined;
      const [row] = await db.select().from(refundRequests).where(eq(refundRequests.id, id));
      return row;
    },

    /** Takes a pending request for `reviewer` (never its requester): of two approvals, one. */
    async claim(id: string, reviewer: string, at: Date): Promise<RefundRequestRow | undefined> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(refundRequests)
          .set({ status: 'refunding', reviewedBy: reviewer, reviewedAt: at })
          .where(
            and(
              eq(refundRequests.id, id),
              eq(refundRequests.status, 'pending'),
              ne(refundRequests.requestedBy, reviewer),
            ),
          )
          .returning();
        return row;
      });
    },

    /** Puts a claimed request back in the queue (the provider failed while refunding it). */
    async release(id: string): Promise<void> {
      await db.transaction((tx) =>
        tx
          .update(refundRequests)
          .set({ status: 'pending', reviewedBy: null, reviewedAt: null })
          .where(and(eq(refundRequests.id, id), eq(refundRequests.status, 'refunding'))),
      );
    },

    async markRefunded(
      id: string,
      done: { at: Date; creditNoteNumber: string | null; endedSubscription: string | null },
    ): Promise<RefundRequestRow | undefined> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(refundRequests)
          .set({
            status: 'refunded',
            refundedAt: done.at,
            creditNoteNumber: done.creditNoteNumber,
            endedSubscription: done.endedSubscription,
          })
          .where(eq(refundRequests.id, id))
          .returning();
        return row;
      });
    },

    async markFailed(id: string, failure: string): Promise<RefundRequestRow | undefined> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(refundRequests)
          .set({ status: 'failed', failure })
          .where(eq(refundRequests.id, id))
          .returning();
        return row;
      });
    },

    async reject(
      id: string,
      review: { by: string; at: Date; reason: string },
    ): Promise<RefundRequestRow | undefined> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(refundRequests)
          .set({
            status: 'rejected',
            reviewedBy: review.by,
            reviewedAt: review.at,
            rejectionReason: review.reason,
          })
          .where(and(eq(refundRequests.id, id), eq(refundRequests.status, 'pending')))
          .returning();
        return row;
      });
    },

    /** The requests waiting for a second operator, oldest first. */
    pending(limit: number): Promise<RefundRequestRow[]> {
      return db
        .select()
        .from(refundRequests)
        .where(eq(refundRequests.status, 'pending'))
        .orderBy(refundRequests.requestedAt)
        .limit(limit);
    },

    /** The newest requests that are no longer waiting. */
    recent(limit: number): Promise<RefundRequestRow[]> {
      return db
        .select()
        .from(refundRequests)
        .where(ne(refundRequests.status, 'pending'))
        .orderBy(desc(refundRequests.requestedAt))
        .limit(limit);
    },

    /** The licence a subscription's payment paid for, if it has one (what a refund may end). */
    async licenceOfSubscription(subscriptionId: string) {
      const [row] = await db
        .select({
          id: licences.id,
          email: licences.email,
          edition: licences.edition,
          expiresAt: licences.expiresAt,
        })
        .from(subscriptions)
        .innerJoin(licences, eq(licences.id, subscriptions.licenceId))
        .where(eq(subscriptions.subscriptionId, subscriptionId));
      return row;
    },

    /** The addresses of the operators among `actors` (`operator:<id>`), by actor. */
    async operatorEmails(actors: readonly string[]): Promise<Map<string, string>> {
      const ids = [
        ...new Set(
          actors.flatMap((actor) =>
            /^operator:[0-9a-f-]{36}$/.test(actor) ? [actor.slice('operator:'.length)] : [],
          ),
        ),
      ];
      if (ids.length === 0) return new Map();
      const rows = await db
        .select({ id: operators.id, email: operators.email })
        .from(operators)
        .where(inArray(operators.id, ids));
      return new Map(rows.map((row) => [`operator:${row.id}`, row.email]));
    },
  };
}
