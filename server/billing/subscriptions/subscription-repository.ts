import { and, asc, eq, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { Executor } from '#server/platform/db/database.ts';
import { paymentEvents, subscriptions } from '#server/platform/db/schema.ts';
import type { SubscriptionTerms } from '#server/billing/subscriptions/lifecycle-rules.ts';
import { isSubscriptionStatus } from './payment-types.ts';
import type { PaymentEvent, PaymentProviderName, SubscriptionSnapshot } from './payment-types.ts';

export type SubscriptionRow = typeof subscriptions.$inferSelect;

/** The subscription mirror and the processed-event ledger. */
export function createSubscriptionRepository(db: Executor) {
  return {
    /** Serialises every sync of one subscription (all instances share the database). */
    async lock(provider: PaymentProviderName, subscriptionId: string): Promise<void> {
      await db.execute(
        sql`select pg_advisory_xact_lock(hashtextextended(${`${provider}:${subscriptionId}`}, 7301))`,
      );
    },

    async eventProcessed(provider: PaymentProviderName, eventId: string): Promise<boolean> {
      const rows = await db
        .select({ eventId: paymentEvents.eventId })
        .from(paymentEvents)
        .where(and(eq(paymentEvents.provider, provider), eq(paymentEvents.eventId, eventId)));
      return rows.length > 0;
    },

    /** Records an event; false when it was recorded before (the unique key decides). */
    async recordEvent(
      provider: PaymentProviderName,
      event: PaymentEvent,
      now: Date,
    ): Promise<boolean> {
      const inserted = await db
        .insert(paymentEvents)
        .values({
          provider,
          eventId: event.id,
          type: event.type,
          subscriptionId: event.subscriptionId,
          processedAt: now,
        })
        .onConflictDoNothing()
        .returning({ eventId: paymentEvents.eventId });
      return inserted.length === 1;
    },

    async find(
      provider: PaymentProviderName,
      subscriptionId: string,
    ): Promise<SubscriptionRow | undefined> {
      const [row] = await db
        .select()
        .from(subscriptions)
        .where(
          and(
            eq(subscriptions.provider, provider),
            eq(subscriptions.subscriptionId, subscriptionId),
          ),
        );
      return row;
    },

    async findByLicence(licenceId: string): Promise<SubscriptionRow | undefined> {
      const [row] = await db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.licenceId, licenceId));
      return row;
    },

    /** The mirrored subscriptions that pay for any of these licences. */
    findByLicences(licenceIds: readonly string[]): Promise<SubscriptionRow[]> {
      if (licenceIds.length === 0) return Promise.resolve([]);
      return db
        .select()
        .from(subscriptions)
        .where(inArray(subscriptions.licenceId, [...licenceIds]));
    },

    /**
     * Subscriptions paid by invoice whose open invoice was due by `now` (decision 144), oldest
     * first, a page after `after` (keyset on due date, provider and id; decision 175).
     */
    overdueInvoices(
      now: Date,
      limit: number,
      after?: { dueAt: Date; provider: string; subscriptionId: string },
    ): Promise<SubscriptionRow[]> {
      const page = after
        ? sql`(${subscriptions.openInvoiceDueAt}, ${subscriptions.provider}, ${subscriptions.subscriptionId}) > (${after.dueAt.toISOString()}::timestamptz, ${after.provider}, ${after.subscriptionId})`
        : undefined;
      return db
        .select()
        .from(subscriptions)
        .where(
          and(
            eq(subscriptions.collection, 'invoice'),
            isNotNull(subscriptions.openInvoiceDueAt),
            lte(subscriptions.openInvoiceDueAt, now),
            isNotNull(subscriptions.licenceId),
            page,
          ),
        )
        .orderBy(
          asc(subscriptions.openInvoiceDueAt),
          asc(subscriptions.provider),
          asc(subscriptions.subscriptionId),
        )
        .limit(limit);
    },

    /** Points the mirror at another licence, which took the subscription over (decision 213). */
    async moveLicence(
      provider: PaymentProviderName,
      subscriptionId: string,
      licence: { id: string; origin: 'issued' | 'converted' },
      now: Date,
    ): Promise<void> {
      await db
        .update(subscriptions)
        .set({ licenceId: licence.id, licenceOrigin: licence.origin, updatedAt: now })
        .where(
          and(
            eq(subscriptions.provider, provider),
            eq(subscriptions.subscriptionId, subscriptionId),
          ),
        );
    },

    /** Writes the snapshot as the subscription's last known state (origin only when attached). */
    async save(
      snapshot: SubscriptionSnapshot,
      licence: { id: string; origin?: 'issued' | 'converted' } | null,
      readAt: Date,
      /** The paying address where it is not the licence's (decision 223); absent: unchanged. */
      payer?: { billingEmail: string | null },
    ): Promise<void> {
      const values = {
        ...(payer ? { billingEmail: payer.billingEmail } : {}),
        licenceId: licence?.id ?? null,
        ...(licence?.origin ? { licenceOrigin: licence.origin } : {}),
        customerId: snapshot.customerId,
        status: snapshot.status,
        edition: snapshot.edition,
        quantity: snapshot.quantity,
        billingPeriod: snapshot.billingPeriod,
        currency: snapshot.currency,
        currentPeriodEnd: snapshot.currentPeriodEnd,
        cancelAtPeriodEnd: snapshot.cancelAtPeriodEnd,
        endedAt: snapshot.endedAt,
        endedForNonPayment: snapshot.endedForNonPayment,
        collection: snapshot.collection,
        openInvoiceId: snapshot.openInvoice?.invoiceId ?? null,
        openInvoiceNumber: snapshot.openInvoice?.number ?? null,
        openInvoiceUrl: snapshot.openInvoice?.hostedUrl ?? null,
        openInvoiceDueAt: snapshot.openInvoice?.dueAt ?? null,
        snapshotReadAt: readAt,
        updatedAt: readAt,
      };
      await db
        .insert(subscriptions)
        .values({
          provider: snapshot.provider,
          subscriptionId: snapshot.subscriptionId,
          createdAt: readAt,
          ...values,
        })
        .onConflictDoUpdate({
          target: [subscriptions.provider, subscriptions.subscriptionId],
          set: values,
        });
    },
  };
}

/** The lifecycle's view of a mirrored subscription. */
export function termsOfRow(row: SubscriptionRow): SubscriptionTerms | null {
  if (!isSubscriptionStatus(row.status)) return null;
  return {
    status: row.status,
    edition: row.edition,
    quantity: row.quantity,
    currentPeriodEnd: row.currentPeriodEnd,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    endedAt: row.endedAt,
    endedForNonPayment: row.endedForNonPayment,
    collection: row.collection,
    unpaidInvoiceDueAt: row.openInvoiceDueAt,
  };
}
