import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Executor } from '#server/platform/db/database.ts';
import { providerCalls, type ProviderCallKind } from '#server/platform/db/schema.ts';

export type ProviderCall = typeof providerCalls.$inferSelect;

/** The lifecycle's provider calls as rows (decision 246). */
export function createProviderCallRepository(db: Executor) {
  return {
    /**
     * Queues calls due at `now`, in the caller's transaction: a call of a kind already waiting
     * for the subscription is not queued twice (it keeps its attempts and backoff).
     */
    async enqueue(
      calls: readonly { kind: ProviderCallKind; subscriptionId: string }[],
      now: Date,
    ): Promise<void> {
      if (calls.length === 0) return;
      await db
        .insert(providerCalls)
        .values(calls.map((call) => ({ ...call, nextAttemptAt: now, createdAt: now })))
        .onConflictDoNothing({
          target: [providerCalls.kind, providerCalls.subscriptionId],
          where: sql`${providerCalls.status} = 'pending'`,
        });
    },

    /**
     * Claims up to `limit` due calls for one attempt each: rows another worker holds are skipped
     * (row locks, then the lease), so a call is made by one worker at a time.
     */
    async claimDue(now: Date, limit: number, leaseMs: number): Promise<ProviderCall[]> {
      const due = db
        .select({ id: providerCalls.id })
        .from(providerCalls)
        .where(
          and(
            eq(providerCalls.status, 'pending'),
            lte(providerCalls.nextAttemptAt, now),
            or(isNull(providerCalls.leasedUntil), lte(providerCalls.leasedUntil, now)),
          ),
        )
        .orderBy(asc(providerCalls.nextAttemptAt), asc(providerCalls.id))
        .limit(limit)
        .for('update', { skipLocked: true });
      const claimed = await db
        .update(providerCalls)
        .set({
          attempts: sql`${providerCalls.attempts} + 1`,
          leasedUntil: new Date(now.getTime() + leaseMs),
        })
        .where(inArray(providerCalls.id, due))
        .returning();
      return claimed.sort((a, b) => a.id - b.id);
    },

    /** A call that succeeded is done: nothing is kept of it. */
    async succeeded(call: ProviderCall): Promise<void> {
      await db.delete(providerCalls).where(eq(providerCalls.id, call.id));
    },

    /** A failed attempt: due again at `retryAt`, or given up (`failed`) when there is none. */
    async attemptFailed(call: ProviderCall, error: string, retryAt: Date | null): Promise<void> {
      await db
        .update(providerCalls)
        .set({
          leasedUntil: null,
          lastError: error.slice(0, 500),
          ...(retryAt ? { nextAttemptAt: retryAt } : { status: 'failed' as const }),
        })
        .where(eq(providerCalls.id, call.id));
    },

    /** Calls given up, newest first (operators, tests). */
    failed(limit = 100): Promise<ProviderCall[]> {
      return db
        .select()
        .from(providerCalls)
        .where(eq(providerCalls.status, 'failed'))
        .orderBy(sql`${providerCalls.id} desc`)
        .limit(limit);
    },

    /**
     * Makes a given-up call due again at `now` with a fresh count of attempts (an operator, after
     * the provider's fault was mended). Refused while a call of its kind for its subscription
     * waits already: that one will do.
     */
    async retry(id: number, now: Date): Promise<'retried' | 'not-failed' | 'already-waiting'> {
      // In a transaction, where the audit log sees who acts (decision 224, migration 1001).
      const rows = await db.transaction((tx) =>
        tx
          .update(providerCalls)
          .set({ status: 'pending', attempts: 0, nextAttemptAt: now, leasedUntil: null })
          .where(
            and(
              eq(providerCalls.id, id),
              eq(providerCalls.status, 'failed'),
              sql`not exists (select 1 from provider_calls waiting
              where waiting.status = 'pending' and waiting.kind = ${providerCalls.kind}
                and waiting.subscription_id = ${providerCalls.subscriptionId})`,
            ),
          )
          .returning({ id: providerCalls.id }),
      );
      if (rows.length === 1) return 'retried';
      const [call] = await db
        .select({ status: providerCalls.status })
        .from(providerCalls)
        .where(eq(providerCalls.id, id));
      return call?.status === 'failed' ? 'already-waiting' : 'not-failed';
    },

    /** How many calls wait and how many were given up (`/metrics`). */
    async counts(): Promise<{ pending: number; failed: number }> {
      const rows = await db
        .select({ status: providerCalls.status, n: sql<number>`count(*)`.mapWith(Number) })
        .from(providerCalls)
        .groupBy(providerCalls.status);
      const of = (status: string) => rows.find((row) => row.status === status)?.n ?? 0;
      return { pending: of('pending'), failed: of('failed') };
    },

    /** Calls waiting, due or not (tests). */
    pending(): Promise<ProviderCall[]> {
      return db
        .select()
        .from(providerCalls)
        .where(eq(providerCalls.status, 'pending'))
        .orderBy(asc(providerCalls.id));
    },
  };
}
