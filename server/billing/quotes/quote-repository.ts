import { and, desc, eq, gte, isNull, sql } from 'drizzle-orm';
import type { Executor } from '#server/platform/db/database.ts';
import { quoteNumberCounters, quotes } from '#server/platform/db/schema.ts';

export type StoredQuote = typeof quotes.$inferSelect;
export type NewQuote = typeof quotes.$inferInsert;

export function createQuoteRepository(db: Executor) {
  return {
    /**
     * The next sequence number of `year` (decision 142). The counter row stays locked until the
     * caller's transaction ends, so concurrent quotes take turns and never share a number; a
     * rolled-back quote leaves no gap.
     */
    async nextSequence(year: number): Promise<number> {
      const [row] = await db
        .insert(quoteNumberCounters)
        .values({ year, lastNumber: 1 })
        .onConflictDoUpdate({
          target: quoteNumberCounters.year,
          set: { lastNumber: sql`${quoteNumberCounters.lastNumber} + 1` },
        })
        .returning({ lastNumber: quoteNumberCounters.lastNumber });
      if (!row) throw new Error('quote number counter returned no row');
      return row.lastNumber;
    },

    async insert(quote: NewQuote): Promise<StoredQuote> {
      const [row] = await db.insert(quotes).values(quote).returning();
      if (!row) throw new Error('quote insert returned no row');
      return row;
    },

    async findByNumber(number: string): Promise<StoredQuote | undefined> {
      const [row] = await db.select().from(quotes).where(eq(quotes.number, number)).limit(1);
      return row;
    },

    async findByTokenHash(tokenHash: string): Promise<StoredQuote | undefined> {
      const [row] = await db.select().from(quotes).where(eq(quotes.tokenHash, tokenHash)).limit(1);
      return row;
    },

    /**
     * Marks an open quote accepted by invoice order `orderId` (decision 154): a conditional
     * update, so of two orders at the same moment exactly one claims it. False when it was
     * accepted already.
     */
    async claimAcceptance(number: string, orderId: string, now: Date): Promise<boolean> {
      const claimed = await db
        .update(quotes)
        .set({
          status: 'accepted',
          acceptedAt: now,
          acceptedBy: 'invoice',
          acceptedOrderId: orderId,
        })
        .where(and(eq(quotes.number, number), eq(quotes.status, 'open')))
        .returning({ number: quotes.number });
      return claimed.length === 1;
    },

    /**
     * Marks an open quote accepted by the paid card subscription `subscriptionId` (decision 214),
     * in the sync's transaction. True when this subscription holds it (now or from an earlier
     * sync); false when an invoice order or another checkout accepted it first.
     */
    async acceptByCard(number: string, subscriptionId: string, now: Date): Promise<boolean> {
      const claimed = await db
        .update(quotes)
        .set({
          status: 'accepted',
          acceptedAt: now,
          acceptedBy: 'card',
          acceptedSubscriptionId: subscriptionId,
        })
        .where(and(eq(quotes.number, number), eq(quotes.status, 'open')))
        .returning({ number: quotes.number });
      if (claimed.length === 1) return true;
      const [row] = await db
        .select({ by: quotes.acceptedBy, subscriptionId: quotes.acceptedSubscriptionId })
        .from(quotes)
        .where(eq(quotes.number, number));
      return row?.by === 'card' && row.subscriptionId === subscriptionId;
    },

    /** Gives the quote back when the order that claimed it could not be created. */
    async releaseAcceptance(number: string, orderId: string): Promise<void> {
      await db
        .update(quotes)
        .set({ status: 'open', acceptedAt: null, acceptedBy: null, acceptedOrderId: null })
        .where(
          and(
            eq(quotes.number, number),
            eq(quotes.acceptedOrderId, orderId),
            isNull(quotes.acceptedSubscriptionId),
          ),
        );
    },

    /** What the accepting order bought: its subscription and invoice. */
    async recordAcceptance(
      number: string,
      orderId: string,
      created: { subscriptionId: string; invoiceNumber: string },
    ): Promise<void> {
      await db
        .update(quotes)
        .set({
          acceptedSubscriptionId: created.subscriptionId,
          acceptedInvoiceNumber: created.invoiceNumber,
        })
        .where(and(eq(quotes.number, number), eq(quotes.acceptedOrderId, orderId)));
    },

    /** The latest quotes, newest first (operator list). */
    listRecent(options: { limit: number; since?: Date | undefined }): Promise<StoredQuote[]> {
      const query = db.select().from(quotes);
      return (options.since ? query.where(gte(quotes.createdAt, options.since)) : query)
        .orderBy(desc(quotes.createdAt), desc(quotes.number))
        .limit(options.limit);
    },
  };
}
