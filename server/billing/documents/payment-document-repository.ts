import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '#server/platform/db/database.ts';
import { paymentDocumentCounters, paymentDocuments } from '#server/platform/db/schema.ts';

export type StoredPaymentDocument = typeof paymentDocuments.$inferSelect;
export type NewPaymentDocument = typeof paymentDocuments.$inferInsert;

export function createPaymentDocumentRepository(db: Executor) {
  return {
    /**
     * The next number of `year`: the counter row is updated in the caller's transaction and
     * stays locked until it ends, so numbers are handed out in order and a rollback gives the
     * number back (decision 180).
     */
    async nextSequence(year: number): Promise<number> {
      const [row] = await db
        .insert(paymentDocumentCounters)
        .values({ year, lastNumber: 1 })
        .onConflictDoUpdate({
          target: paymentDocumentCounters.year,
          set: { lastNumber: sql`${paymentDocumentCounters.lastNumber} + 1` },
        })
        .returning({ lastNumber: paymentDocumentCounters.lastNumber });
      if (!row) throw new Error('document number counter returned no row');
      return row.lastNumber;
    },

    async insert(document: NewPaymentDocument): Promise<StoredPaymentDocument> {
      const [row] = await db.insert(paymentDocuments).values(document).returning();
      if (!row) throw new Error('document insert returned no row');
      return row;
    },

    async findByNumber(number: string): Promise<StoredPaymentDocument | undefined> {
      const [row] = await db
        .select()
        .from(paymentDocuments)
        .where(eq(paymentDocuments.number, number))
        .limit(1);
      return row;
    },

    async findByProviderInvoice(
      provider: string,
      providerInvoiceId: string,
    ): Promise<StoredPaymentDocument | undefined> {
      const [row] = await db
        .select()
        .from(paymentDocuments)
        .where(
          and(
            eq(paymentDocuments.provider, provider),
            eq(paymentDocuments.providerInvoiceId, providerInvoiceId),
          ),
        )
        .limit(1);
      return row;
    },

    /** The documents of a subscription, oldest first. */
    listForSubscription(subscriptionId: string): Promise<StoredPaymentDocument[]> {
      return db
        .select()
        .from(paymentDocuments)
        .where(eq(paymentDocuments.subscriptionId, subscriptionId))
        .orderBy(asc(paymentDocuments.createdAt), asc(paymentDocuments.number));
    },
  };
}
