import { and, asc, between, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '#server/platform/db/database.ts';
import {
  localInvoices,
  paymentDocumentSeriesCounters,
  paymentDocuments,
} from '#server/platform/db/schema.ts';
import type { DocumentSeries } from './payment-document.ts';

export type StoredPaymentDocument = typeof paymentDocuments.$inferSelect;
export type NewPaymentDocument = typeof paymentDocuments.$inferInsert;

export function createPaymentDocumentRepository(db: Executor) {
  return {
    /**
     * The next number of `series` in `year`: the counter row is updated in the caller's
     * transaction and stays locked until it ends, so numbers are handed out in order and a
     * rollback gives the number back (decisions 180, 220). It never falls below the highest
     * number issued, which an instance of the release before counted elsewhere.
     */
    async nextSequence(year: number, series: DocumentSeries = 'INV'): Promise<number> {
      const highest = sql`(select coalesce(max(${paymentDocuments.sequence}), 0)
        from ${paymentDocuments}
        where split_part(${paymentDocuments.number}, '-', 1) = ${series}
          and ${paymentDocuments.year} = ${year})`;
      const [row] = await db
        .insert(paymentDocumentSeriesCounters)
        .values({ series, year, lastNumber: sql`${highest} + 1` })
        .onConflictDoUpdate({
          target: [paymentDocumentSeriesCounters.series, paymentDocumentSeriesCounters.year],
          set: {
            lastNumber: sql`greatest(${paymentDocumentSeriesCounters.lastNumber}, ${highest}) + 1`,
          },
        })
        .returning({ lastNumber: paymentDocumentSeriesCounters.lastNumber });
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

    /** The row of `number`, locked until the caller's transaction ends (credits are counted under it). */
    async lockByNumber(number: string): Promise<StoredPaymentDocument | undefined> {
      const [row] = await db
        .select()
        .from(paymentDocuments)
        .where(eq(paymentDocuments.number, number))
        .for('update')
        .limit(1);
      return row;
    },

    async findByIdempotencyKey(key: string): Promise<StoredPaymentDocument | undefined> {
      const [row] = await db
        .select()
        .from(paymentDocuments)
        .where(eq(paymentDocuments.idempotencyKey, key))
        .limit(1);
      return row;
    },

    /** The credit notes of an invoice or receipt, oldest first. */
    creditNotesOf(number: string): Promise<StoredPaymentDocument[]> {
      return db
        .select()
        .from(paymentDocuments)
        .where(eq(paymentDocuments.creditsNumber, number))
        .orderBy(asc(paymentDocuments.createdAt), asc(paymentDocuments.number));
    },

    /** The credit notes of several invoices and receipts at once (a month's list). */
    creditNotesOfEach(numbers: readonly string[]): Promise<StoredPaymentDocument[]> {
      if (numbers.length === 0) return Promise.resolve([]);
      return db
        .select()
        .from(paymentDocuments)
        .where(inArray(paymentDocuments.creditsNumber, [...numbers]))
        .orderBy(asc(paymentDocuments.createdAt), asc(paymentDocuments.number));
    },

    /** Records the arrival of an invoice's money once; false when it was recorded before. */
    async markPaid(number: string, paidAt: Date): Promise<boolean> {
      const rows = await db
        .update(paymentDocuments)
        .set({ paidAt })
        .where(and(eq(paymentDocuments.number, number), isNull(paymentDocuments.paidAt)))
        .returning({ number: paymentDocuments.number });
      return rows.length > 0;
    },

    /** The newest documents, newest first (the operator's list). */
    listNewest(limit: number): Promise<StoredPaymentDocument[]> {
      return db
        .select()
        .from(paymentDocuments)
        .orderBy(desc(paymentDocuments.createdAt), desc(paymentDocuments.number))
        .limit(limit);
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
