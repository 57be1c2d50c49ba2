import { and, asc, between, eq, sql } from 'drizzle-orm';
import type { Executor } from '#server/platform/db/database.ts';
import {
  localInvoices,
  paymentDocumentCounters,
  paymentDocuments,
} from '#server/platform/db/schema.ts';

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

    /**
     * The documents issued from `from` to `to` (calendar days, both included), in number order,
     * each with the time the local provider recorded its payment (an invoice paid after it was
     * issued keeps its issued text; the books still say when it was paid).
     */
    async listIssuedBetween(
      from: string,
      to: string,
    ): Promise<Array<{ row: StoredPaymentDocument; paidAt: Date | null }>> {
      const rows = await db
        .select({ row: paymentDocuments, paidAt: localInvoices.paidAt })
        .from(paymentDocuments)
        .leftJoin(
          localInvoices,
          and(
            eq(paymentDocuments.provider, 'local'),
            eq(localInvoices.id, paymentDocuments.providerInvoiceId),
          ),
        )
        .where(between(paymentDocuments.issuedOn, from, to))
        .orderBy(asc(paymentDocuments.year), asc(paymentDocuments.sequence));
      return rows;
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
