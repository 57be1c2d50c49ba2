import { and, asc, eq, inArray, isNotNull, isNull, lte, ne, or, sql } from 'drizzle-orm';
import type { Executor } from '#server/platform/db/database.ts';
import {
  paymentEvents,
  subscriptions,
  type PaymentEventOutcome,
} from '#server/platform/db/schema.ts';
import type { SubscriptionTerms } from '#server/billing/subscriptions/lifecycle-rules.ts';
import { isSubscriptionStatus } from './payment-types.ts';
import type { PaymentEvent, PaymentProviderName, SubscriptionSnapshot } from './payment-types.ts';

export type SubscriptionRow = typeof subscriptions.$inferSelect;

const notFailed = or(isNull(paymentEvents.outcome), ne(paymentEvents.outcome, 'failed'));

/** The subscription mirror and the processed-event ledger. */
export function createSubscriptionRepository(db: Executor) {
  return {
    /** Serialises every sync of one subscription (all instances share the database). */
    async lock(provider: PaymentProviderName, subscriptionId: string): Promise<void> {
      await db.execute(
        sql`select pg_advisory_xact_lock(hashtextextended(${`${provider}:${subscriptionId}`}, 7301))`,
      );
    },

    /** Whether this event was processed before (a failed attempt does not count). */
    async eventProcessed(provider: PaymentProviderName, eventId: string): Promise<boolean> {
      const rows = await db
        .select({ eventId: paymentEvents.eventId })
        .from(paymentEvents)
        .where(
          and(eq(paymentEvents.provider, provider), eq(paymentEvents.eventId, eventId), notFailed),
        );
      return rows.length > 0;
    },

    /**
     * Records an event; false when it was recorded before (the unique key decides). A failed
     * attempt's row is taken over: this delivery is the one that may apply it (decision 235).
     */
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
          lastReceivedAt: now,
        })
        .onConflictDoUpdate({
          target: [paymentEvents.provider, paymentEvents.eventId],
          set: {
            outcome: null,
            error: null,
            processedAt: now,
            lastReceivedAt: now,
            deliveries: sql`${paymentEvents.deliveries} + 1`,
          },
          setWhere: eq(paymentEvents.outcome, 'failed'),
        })
        .returning({ eventId: paymentEvents.eventId });
      return inserted.length === 1;
    },

    /** What the sync of a recorded event did (the event log, decision 235). */
    async recordOutcome(
      provider: PaymentProviderName,
      eventId: string,
      outcome: PaymentEventOutcome,
    ): Promise<void> {
      await db
        .update(paymentEvents)
        .set({ outcome })
        .where(and(eq(paymentEvents.provider, provider), eq(paymentEvents.eventId, eventId)));
    },

    /** Another delivery of an event processed before: counted, nothing else done. */
    async countDuplicate(provider: PaymentProviderName, eventId: string, now: Date): Promise<void> {
      await db
        .update(paymentEvents)
        .set({ deliveries: sql`${paymentEvents.deliveries} + 1`, lastReceivedAt: now })
        .where(and(eq(paymentEvents.provider, provider), eq(paymentEvents.eventId, eventId)));
    },

    /**
     * An event whose sync threw: recorded as failed with the error, outside the rolled-back
     * transaction, unless a delivery processed it meanwhile. The provider delivers it again.
     */
    async recordFailure(
      provider: PaymentProviderName,
      event: PaymentEvent,
      error: string,
      now: Date,
    ): Promise<void> {
      await db
        .insert(paymentEvents)
        .values({
          provider,
          eventId: event.id,
          type: event.type,
          subscriptionId: event.subscriptionId,
          processedAt: now,
          lastReceivedAt: now,
          outcome: 'failed',
          error,
        })
        .onConflictDoUpdate({
          target: [paymentEvents.provider, paymentEvents.eventId],
          set: {
            error,
            lastReceivedAt: now,
            deliveries: sql`${paymentEvents.deliveries} + 1`,
          },
          setWhere: eq(paymentEvents.outcome, 'failed'),
        });
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
        openInvoiceAmountMinor: snapshot.openInvoice?.amountDue ?? null,
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
