import { and, desc, eq, gt, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '#server/platform/db/database.ts';
import { invoiceOrders, paymentDocuments, subscriptions } from '#server/platform/db/schema.ts';
import { INVOICE_ORDERS_PER_DOMAIN } from '#shared/contracts/invoice-order-messages.ts';
import type { InvoiceOrderCap } from './invoice-order-cap.ts';

export type InvoiceOrder = typeof invoiceOrders.$inferSelect;
export type NewInvoiceOrder = typeof invoiceOrders.$inferInsert;

/**
 * Whether an order is open at `now` (decision 153): waiting for its link, being confirmed, or
 * confirmed while its subscription still has an open invoice (or has not been mirrored yet).
 */
function isOpen(now: Date, provenOnly: boolean): SQL {
  const paidOrEnded = sql`exists (select 1 from ${subscriptions} s
    where s.provider = ${invoiceOrders.provider} and s.subscription_id = ${invoiceOrders.subscriptionId}
    and (s.open_invoice_id is null or s.ended_at is not null))`;
  const proven = or(
    eq(invoiceOrders.status, 'confirming'),
    // Confirmed by its mailbox and waiting for finance (decision 230): as open as an unpaid one.
    eq(invoiceOrders.status, 'awaiting_approval'),
    and(eq(invoiceOrders.status, 'confirmed'), sql`not ${paidOrEnded}`),
  );
  const open = provenOnly
    ? proven
    : or(and(eq(invoiceOrders.status, 'pending'), gt(invoiceOrders.expiresAt, now)), proven);
  if (!open) throw new Error('unreachable: or() of conditions');
  return open;
}

export function createInvoiceOrderRepository(db: Executor) {
  return {
    /**
     * Serialises the orders of one cap (`InvoiceOrderCap.lockKey`: a domain, or a free-mail
     * address) until the caller's transaction ends, so two orders (or confirmations) at the same
     * moment cannot both pass the caps.
     */
    async lock(key: string): Promise<void> {
      await db.execute(
        sql`select pg_advisory_xact_lock(hashtextextended(${`invoice-order:${key}`}, 7302))`,
      );
    },

    /**
     * The caps an order for `emailNormalized` must pass, under the cap's lock, when it is placed
     * and again when it is confirmed (decisions 153, 209), in order: a confirmed unpaid order of
     * the same address (OrderOpen; a pending one, maybe placed by a stranger, blocks nothing) →
     * at a company domain, its INVOICE_ORDERS_PER_DOMAIN confirmed unpaid orders (DomainLimit).
     * `exceptId` is the order being confirmed.
     */
    async capRefusal(
      cap: InvoiceOrderCap,
      emailNormalized: string,
      now: Date,
      exceptId?: string,
    ): Promise<'OrderOpen' | 'DomainLimit' | undefined> {
      const except = exceptId ? ne(invoiceOrders.id, exceptId) : undefined;
      const [address] = await db
        .select({ count: sql<number>`count(*)::int` })
        .from(invoiceOrders)
        .where(and(eq(invoiceOrders.emailNormalized, emailNormalized), isOpen(now, true), except));
      if ((address?.count ?? 0) > 0) return 'OrderOpen';
      if (!cap.perDomain) return undefined;
      const [domain] = await db
        .select({ count: sql<number>`count(*)::int` })
        .from(invoiceOrders)
        .where(and(eq(invoiceOrders.emailDomain, cap.domain), isOpen(now, true), except));
      return (domain?.count ?? 0) >= INVOICE_ORDERS_PER_DOMAIN ? 'DomainLimit' : undefined;
    },

    async insert(order: NewInvoiceOrder): Promise<InvoiceOrder> {
      const [row] = await db.insert(invoiceOrders).values(order).returning();
      if (!row) throw new Error('invoice order insert returned no row');
      return row;
    },

    async findByTokenHash(tokenHash: string): Promise<InvoiceOrder | undefined> {
      const [row] = await db
        .select()
        .from(invoiceOrders)
        .where(eq(invoiceOrders.tokenHash, tokenHash))
        .limit(1);
      return row;
    },

    async findById(id: string): Promise<InvoiceOrder | undefined> {
      const [row] = await db.select().from(invoiceOrders).where(eq(invoiceOrders.id, id)).limit(1);
      return row;
    },

    /**
     * Takes a pending, unexpired order for confirmation: a conditional update, so of two
     * confirmations at the same moment exactly one gets the row.
     */
    async claimForConfirmation(id: string, now: Date): Promise<InvoiceOrder | undefined> {
      const [row] = await db
        .update(invoiceOrders)
        .set({ status: 'confirming', confirmedAt: now })
        .where(
          and(
            eq(invoiceOrders.id, id),
            eq(invoiceOrders.status, 'pending'),
            gt(invoiceOrders.expiresAt, now),
          ),
        )
        .returning();
      return row;
    },

    /**
     * Whether the company (its e-mail domain; a free-mail address alone) has paid us before: a
     * paid invoice or receipt of a buyer there (decision 230) that its credit notes have not
     * paid back in full — a payment refunded whole is no payment (decision 247).
     */
    async paidBefore(cap: InvoiceOrderCap, emailNormalized: string): Promise<boolean> {
      const [row] = await db
        .select({ number: paymentDocuments.number })
        .from(paymentDocuments)
        .where(
          and(
            sql`${paymentDocuments.paidAt} is not null`,
            ne(paymentDocuments.kind, 'credit_note'),
            sql`${paymentDocuments.grossMinor} > coalesce((select sum(c.gross_minor)
              from payment_documents c
              where c.kind = 'credit_note' and c.credits_number = ${paymentDocuments.number}), 0)`,
            cap.perDomain
              ? sql`split_part(${paymentDocuments.buyerEmailNormalized}, '@', 2) = ${cap.domain}`
              : eq(paymentDocuments.buyerEmailNormalized, emailNormalized),
          ),
        )
        .limit(1);
      return row !== undefined;
    },

    /** A claimed order waits for finance instead of going on (decision 230). */
    async markAwaitingApproval(
      id: string,
      review: { reason: 'first-order' | 'above-threshold'; dueAt: Date },
    ): Promise<void> {
      await db
        .update(invoiceOrders)
        .set({
          status: 'awaiting_approval',
          reviewReason: review.reason,
          reviewDueAt: review.dueAt,
        })
        .where(and(eq(invoiceOrders.id, id), eq(invoiceOrders.status, 'confirming')));
    },

    /** Takes an order waiting for finance for its approval: of two approvals at once, one. */
    async claimForApproval(id: string): Promise<InvoiceOrder | undefined> {
      // Each change of an order in a transaction, where the audit log sees who acts (decision 224).
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(invoiceOrders)
          .set({ status: 'confirming' })
          .where(and(eq(invoiceOrders.id, id), eq(invoiceOrders.status, 'awaiting_approval')))
          .returning();
        return row;
      });
    },

    /** Puts an order back in the queue (the provider failed while approving it). */
    async releaseApprovalClaim(id: string): Promise<void> {
      await db.transaction((tx) =>
        tx
          .update(invoiceOrders)
          .set({ status: 'awaiting_approval' })
          .where(and(eq(invoiceOrders.id, id), eq(invoiceOrders.status, 'confirming'))),
      );
    },

    /** Ends an order waiting for finance; undefined when it was not waiting. */
    async reject(
      id: string,
      review: { at: Date; by: string; reason: string },
    ): Promise<InvoiceOrder | undefined> {
      const [row] = await db
        .update(invoiceOrders)
        .set({
          status: 'rejected',
          reviewedAt: review.at,
          reviewedBy: review.by,
          rejectionReason: review.reason,
        })
        .where(and(eq(invoiceOrders.id, id), eq(invoiceOrders.status, 'awaiting_approval')))
        .returning();
      return row;
    },

    /** The orders waiting for finance, oldest first. */
    awaitingApproval(limit: number): Promise<InvoiceOrder[]> {
      return db
        .select()
        .from(invoiceOrders)
        .where(eq(invoiceOrders.status, 'awaiting_approval'))
        .orderBy(invoiceOrders.createdAt)
        .limit(limit);
    },

    /** Gives a claimed order back (the provider failed): its link works again until it expires. */
    async releaseClaim(id: string): Promise<void> {
      await db.transaction((tx) =>
        tx
          .update(invoiceOrders)
          .set({ status: 'pending', confirmedAt: null })
          .where(and(eq(invoiceOrders.id, id), eq(invoiceOrders.status, 'confirming'))),
      );
    },

    async markConfirmed(
      id: string,
      created: { provider: 'stripe' | 'local'; subscriptionId: string; invoiceNumber: string },
      review?: { at: Date; by: string },
    ): Promise<void> {
      await db.transaction((tx) =>
        tx
          .update(invoiceOrders)
          .set({
            status: 'confirmed',
            ...created,
            ...(review ? { reviewedAt: review.at, reviewedBy: review.by } : {}),
          })
          .where(and(eq(invoiceOrders.id, id), eq(invoiceOrders.status, 'confirming'))),
      );
    },

    /**
     * Cancels an order not yet confirmed (pending, or stuck while confirming when `orStuck`);
     * undefined when it was confirmed or cancelled already.
     */
    async cancel(
      id: string,
      by: 'buyer' | 'operator' | 'quote-accepted',
      now: Date,
      options: { orStuck?: boolean } = {},
    ): Promise<InvoiceOrder | undefined> {
      const [row] = await db
        .update(invoiceOrders)
        .set({ status: 'cancelled', cancelledAt: now, cancelledBy: by })
        .where(
          and(
            eq(invoiceOrders.id, id),
            options.orStuck
              ? or(eq(invoiceOrders.status, 'pending'), eq(invoiceOrders.status, 'confirming'))
              : eq(invoiceOrders.status, 'pending'),
          ),
        )
        .returning();
      return row;
    },

    /** Marks a confirmed order cancelled after its subscription was ended (operator). */
    async markConfirmedCancelled(id: string, now: Date): Promise<void> {
      await db
        .update(invoiceOrders)
        .set({ status: 'cancelled', cancelledAt: now, cancelledBy: 'operator' })
        .where(and(eq(invoiceOrders.id, id), eq(invoiceOrders.status, 'confirmed')));
    },

    /** The latest orders, newest first; `openOnly` keeps the open ones (operator list). */
    list(options: { limit: number; now: Date; openOnly: boolean }): Promise<InvoiceOrder[]> {
      const query = db.select().from(invoiceOrders);
      return (options.openOnly ? query.where(isOpen(options.now, false)) : query)
        .orderBy(desc(invoiceOrders.createdAt), desc(invoiceOrders.id))
        .limit(options.limit);
    },

    /** Whether the order counts as open at `now` (operator view). */
    async isOpen(id: string, now: Date): Promise<boolean> {
      const rows = await db
        .select({ id: invoiceOrders.id })
        .from(invoiceOrders)
        .where(and(eq(invoiceOrders.id, id), isOpen(now, false)));
      return rows.length > 0;
    },
  };
}
