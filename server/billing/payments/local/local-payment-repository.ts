import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lte, or } from 'drizzle-orm';
import type { Currency } from '#shared/pricing/index.ts';
import type { Executor } from '#server/platform/db/database.ts';
import {
  localCheckoutSessions,
  localCredits,
  localCustomers,
  localInvoices,
  localPortalSessions,
  localSubscriptions,
} from '#server/platform/db/schema.ts';

export type LocalCustomer = typeof localCustomers.$inferSelect;
export type LocalCheckoutSession = typeof localCheckoutSessions.$inferSelect;
export type LocalSubscription = typeof localSubscriptions.$inferSelect;
export type LocalInvoice = typeof localInvoices.$inferSelect;
export type LocalPortalSession = typeof localPortalSessions.$inferSelect;
export type LocalCredit = typeof localCredits.$inferSelect;

/** Ids shaped like Stripe's; portal, checkout and invoice ids are long: they sit in URLs as bearers. */
export function localId(
  prefix: 'lcus' | 'lcs' | 'lsub' | 'lin' | 'lps' | 'lcn' | 'evt_local',
): string {
  const bytes = prefix === 'lcs' || prefix === 'lps' || prefix === 'lin' ? 24 : 12;
  return `${prefix}_${randomBytes(bytes).toString('base64url')}`;
}

/** Subscriptions the renewal job still has work on (not ended). */
const liveStatuses = ['active', 'trialing', 'past_due'];

/** The local payment provider's records: customers, sessions, subscriptions, invoices. */
export function createLocalPaymentRepository(db: Executor) {
  return {
    async findCustomer(id: string): Promise<LocalCustomer | undefined> {
      const [row] = await db.select().from(localCustomers).where(eq(localCustomers.id, id));
      return row;
    },

    /**
     * One customer per buyer and currency (decision 093): a Stripe customer cannot combine
     * currencies either. The unique (address, currency) makes a concurrent second insert a no-op.
     */
    async findOrCreateCustomer(buyer: {
      email: string;
      emailNormalized: string;
      currency: Currency;
    }): Promise<LocalCustomer> {
      await db
        .insert(localCustomers)
        .values({ id: localId('lcus'), ...buyer })
        .onConflictDoNothing({ target: [localCustomers.emailNormalized, localCustomers.currency] });
      const [customer] = await db
        .select()
        .from(localCustomers)
        .where(
          and(
            eq(localCustomers.emailNormalized, buyer.emailNormalized),
            eq(localCustomers.currency, buyer.currency),
          ),
        );
      if (!customer) throw new Error('local customer insert returned no row');
      return customer;
    },

    async saveCard(
      customerId: string,
      card: { brand: string; last4: string; outcome: 'succeeds' | 'declines' },
    ): Promise<void> {
      await db
        .update(localCustomers)
        .set({ cardBrand: card.brand, cardLast4: card.last4, cardOutcome: card.outcome })
        .where(eq(localCustomers.id, customerId));
    },

    async insertCheckoutSession(
      values: typeof localCheckoutSessions.$inferInsert,
    ): Promise<LocalCheckoutSession> {
      await db
        .insert(localCheckoutSessions)
        .values(values)
        .onConflictDoNothing({ target: localCheckoutSessions.checkoutRequestId });
      const [row] = await db
        .select()
        .from(localCheckoutSessions)
        .where(eq(localCheckoutSessions.checkoutRequestId, values.checkoutRequestId));
      if (!row) throw new Error('local checkout session insert returned no row');
      return row;
    },

    async findCheckoutSession(id: string): Promise<LocalCheckoutSession | undefined> {
      const [row] = await db
        .select()
        .from(localCheckoutSessions)
        .where(eq(localCheckoutSessions.id, id));
      return row;
    },

    /** Locks an open session for completion: a second submit waits, then sees it complete. */
    async lockCheckoutSession(id: string): Promise<LocalCheckoutSession | undefined> {
      const [row] = await db
        .select()
        .from(localCheckoutSessions)
        .where(eq(localCheckoutSessions.id, id))
        .for('update');
      return row;
    },

    async updateCheckoutSession(
      id: string,
      values: Partial<typeof localCheckoutSessions.$inferInsert>,
    ): Promise<void> {
      await db.update(localCheckoutSessions).set(values).where(eq(localCheckoutSessions.id, id));
    },

    async insertSubscription(
      values: typeof localSubscriptions.$inferInsert,
    ): Promise<LocalSubscription> {
      const [row] = await db.insert(localSubscriptions).values(values).returning();
      if (!row) throw new Error('local subscription insert returned no row');
      return row;
    },

    async findSubscription(id: string): Promise<LocalSubscription | undefined> {
      const [row] = await db.select().from(localSubscriptions).where(eq(localSubscriptions.id, id));
      return row;
    },

    async lockSubscription(id: string): Promise<LocalSubscription | undefined> {
      const [row] = await db
        .select()
        .from(localSubscriptions)
        .where(eq(localSubscriptions.id, id))
        .for('update');
      return row;
    },

    /**
     * Claims one subscription with renewal work due at `now` (period over, or a payment retry
     * due); rows locked by another instance are skipped, so each is handled once.
     */
    async claimDueSubscription(now: Date): Promise<LocalSubscription | undefined> {
      const [row] = await db
        .select()
        .from(localSubscriptions)
        .where(
          and(
            isNull(localSubscriptions.endedAt),
            inArray(localSubscriptions.status, liveStatuses),
            or(
              and(
                eq(localSubscriptions.status, 'past_due'),
                lte(localSubscriptions.nextPaymentAttemptAt, now),
              ),
              and(
                inArray(localSubscriptions.status, ['active', 'trialing']),
                lte(localSubscriptions.currentPeriodEnd, now),
              ),
            ),
          ),
        )
        .orderBy(asc(localSubscriptions.currentPeriodEnd))
        .limit(1)
        .for('update', { skipLocked: true });
      return row;
    },

    async updateSubscription(
      id: string,
      values: Partial<typeof localSubscriptions.$inferInsert>,
      now: Date,
    ): Promise<LocalSubscription> {
      const [row] = await db
        .update(localSubscriptions)
        .set({ ...values, updatedAt: now })
        .where(eq(localSubscriptions.id, id))
        .returning();
      if (!row) throw new Error(`local subscription ${id} vanished`);
      return row;
    },

    subscriptionsOfCustomer(customerId: string): Promise<LocalSubscription[]> {
      return db
        .select()
        .from(localSubscriptions)
        .where(eq(localSubscriptions.customerId, customerId))
        .orderBy(desc(localSubscriptions.createdAt));
    },

    async insertInvoice(
      values: Omit<typeof localInvoices.$inferInsert, 'id'>,
    ): Promise<LocalInvoice> {
      const [row] = await db
        .insert(localInvoices)
        .values({ id: localId('lin'), ...values })
        .returning();
      if (!row) throw new Error('local invoice insert returned no row');
      return row;
    },

    async openInvoice(subscriptionId: string): Promise<LocalInvoice | undefined> {
      const [row] = await db
        .select()
        .from(localInvoices)
        .where(
          and(eq(localInvoices.subscriptionId, subscriptionId), eq(localInvoices.status, 'open')),
        )
        .orderBy(desc(localInvoices.createdAt))
        .limit(1);
      return row;
    },

    async updateInvoice(
      id: string,
      values: Partial<typeof localInvoices.$inferInsert>,
    ): Promise<void> {
      await db.update(localInvoices).set(values).where(eq(localInvoices.id, id));
    },

    /** The oldest invoice sent for payment and still open (decision 145). */
    async oldestOpenSentInvoice(subscriptionId: string): Promise<LocalInvoice | undefined> {
      const [row] = await db
        .select()
        .from(localInvoices)
        .where(
          and(
            eq(localInvoices.subscriptionId, subscriptionId),
            eq(localInvoices.status, 'open'),
            isNotNull(localInvoices.dueAt),
          ),
        )
        .orderBy(asc(localInvoices.dueAt))
        .limit(1);
      return row;
    },

    /** Money was received for the subscription: one of its invoices is paid, for more than nothing. */
    async hasPaidInvoice(subscriptionId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: localInvoices.id })
        .from(localInvoices)
        .where(
          and(
            eq(localInvoices.subscriptionId, subscriptionId),
            eq(localInvoices.status, 'paid'),
            gt(localInvoices.amount, 0),
          ),
        )
        .limit(1);
      return row !== undefined;
    },

    async findInvoice(idOrNumber: string): Promise<LocalInvoice | undefined> {
      const [row] = await db
        .select()
        .from(localInvoices)
        .where(or(eq(localInvoices.id, idOrNumber), eq(localInvoices.number, idOrNumber)));
      return row;
    },

    invoicesOf(subscriptionId: string): Promise<LocalInvoice[]> {
      return db
        .select()
        .from(localInvoices)
        .where(eq(localInvoices.subscriptionId, subscriptionId))
        .orderBy(desc(localInvoices.createdAt), desc(localInvoices.id));
    },

    /** The invoice of `id`, locked until the caller's transaction ends (credits count under it). */
    async lockInvoice(id: string): Promise<LocalInvoice | undefined> {
      const [row] = await db
        .select()
        .from(localInvoices)
        .where(eq(localInvoices.id, id))
        .for('update');
      return row;
    },

    creditsOf(invoiceId: string): Promise<LocalCredit[]> {
      return db
        .select()
        .from(localCredits)
        .where(eq(localCredits.invoiceId, invoiceId))
        .orderBy(asc(localCredits.createdAt));
    },

    async findCreditByKey(idempotencyKey: string): Promise<LocalCredit | undefined> {
      const [row] = await db
        .select()
        .from(localCredits)
        .where(eq(localCredits.idempotencyKey, idempotencyKey));
      return row;
    },

    async insertCredit(values: Omit<typeof localCredits.$inferInsert, 'id'>): Promise<LocalCredit> {
      const [row] = await db
        .insert(localCredits)
        .values({ id: localId('lcn'), ...values })
        .returning();
      if (!row) throw new Error('local credit insert returned no row');
      return row;
    },

    async insertPortalSession(values: typeof localPortalSessions.$inferInsert): Promise<void> {
      await db.insert(localPortalSessions).values(values);
    },

    async findPortalSession(id: string): Promise<LocalPortalSession | undefined> {
      const [row] = await db
        .select()
        .from(localPortalSessions)
        .where(eq(localPortalSessions.id, id));
      return row;
    },
  };
}

export type LocalPaymentRepository = ReturnType<typeof createLocalPaymentRepository>;
