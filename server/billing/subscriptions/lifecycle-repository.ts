import { and, asc, eq, gte, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Executor } from '#server/platform/db/database.ts';
import { emailOutbox, licences } from '#server/platform/db/schema.ts';
import type { Licence } from '#server/licensing/licences/licence-repository.ts';
import type { LicenceLifecycle, LicenceStatus } from './lifecycle-rules.ts';

const statuses: readonly LicenceStatus[] = ['Active', 'Deactivated', 'Cancelled'];

/** Where a page of due licences ended: its last row's time (as PostgreSQL's text) and id. */
export interface DueCursor {
  id: string;
  at: string;
}

function isLifecycleStatus(value: string): value is LicenceStatus {
  return statuses.some((status) => status === value);
}

/** The lifecycle fields of a licence row (an unknown status reads as Active). */
export function lifecycleOf(licence: Licence): LicenceLifecycle {
  return {
    type: licence.type,
    status: isLifecycleStatus(licence.status) ? licence.status : 'Active',
    edition: licence.edition,
    quantity: licence.quantity,
    expiresAt: licence.expiresAt,
    deactivatedAt: licence.deactivatedAt,
    deletionScheduledAt: licence.deletionScheduledAt,
    subscriptionStatus: licence.subscriptionStatus,
  };
}

/** Licence writes of the subscription sync and the lifecycle job. */
export function createLifecycleRepository(db: Executor) {
  return {
    /**
     * Ties a licence without a subscription to one; false when another subscription won the race
     * (the condition, not a read before it, decides).
     */
    async attachSubscription(
      licenceId: string,
      link: { subscriptionId: string; customerId: string },
      now: Date,
    ): Promise<boolean> {
      const updated = await db
        .update(licences)
        .set({ subscriptionId: link.subscriptionId, customerId: link.customerId, updatedAt: now })
        .where(and(eq(licences.id, licenceId), isNull(licences.subscriptionId)))
        .returning({ id: licences.id });
      return updated.length === 1;
    },

    /**
     * Unties a licence from its subscription so another licence can take it over (decision 213);
     * false when it is not tied to that subscription.
     */
    async detachSubscription(licenceId: string, subscriptionId: string, now: Date) {
      const updated = await db
        .update(licences)
        .set({ subscriptionId: null, updatedAt: now })
        .where(and(eq(licences.id, licenceId), eq(licences.subscriptionId, subscriptionId)))
        .returning({ id: licences.id });
      return updated.length === 1;
    },

    async saveLifecycle(licenceId: string, state: LicenceLifecycle, now: Date): Promise<Licence> {
      const [row] = await db
        .update(licences)
        .set({ ...state, updatedAt: now })
        .where(eq(licences.id, licenceId))
        .returning();
      if (!row) throw new Error(`licence ${licenceId} vanished`);
      return row;
    },

    /**
     * The ids of the licences the lifecycle job may have work on at `now` — those whose
     * `next_lifecycle_at` (kept by a trigger, decision 175) has come — in id order, at most
     * `max`. No `order by … limit` in the statement: asked for the first few in id order, the
     * planner walked the whole primary key and filtered whenever it guessed a few hundred rows
     * were due (802 ms a batch at 400,000 licences); with the predicate alone it reads the
     * partial index `licences_next_lifecycle_idx`, and the due rows are sorted here. Both
     * statements' plans are tested on a large table.
     */
    async dueLicenceIds(now: Date, max: number): Promise<string[]> {
      const rows = await this.dueLicenceIdsQuery(now, max);
      return rows.map((row) => row.id).sort();
    },

    dueLicenceIdsQuery(now: Date, max: number) {
      return db
        .select({ id: licences.id })
        .from(licences)
        .where(lte(licences.nextLifecycleAt, now))
        .limit(max);
    },

    /**
     * One page of the rows due at `now`, in `next_lifecycle_at` order after `after` (keyset, so
     * a run takes on the whole backlog page by page, however large; decision 242). The order is
     * the partial index's own, and `after` bounds its range, so each page reads only its rows.
     * The cursor's time is PostgreSQL's text (microseconds), not a Date (milliseconds), so the
     * last row of a page is never read again.
     */
    async dueLicencePage(now: Date, after: DueCursor | null, limit: number): Promise<DueCursor[]> {
      return this.dueLicencePageQuery(now, after, limit);
    },

    dueLicencePageQuery(now: Date, after: DueCursor | null, limit: number) {
      return db
        .select({ id: licences.id, at: sql<string>`${licences.nextLifecycleAt}::text` })
        .from(licences)
        .where(
          and(
            lte(licences.nextLifecycleAt, now),
            after
              ? and(
                  gte(licences.nextLifecycleAt, sql`${after.at}::timestamptz`),
                  sql`(${licences.nextLifecycleAt}, ${licences.id}) > (${after.at}::timestamptz, ${after.id})`,
                )
              : undefined,
          ),
        )
        .orderBy(asc(licences.nextLifecycleAt), asc(licences.id))
        .limit(limit);
    },

    /**
     * Claims those of `ids` that are still due at `now`, by primary key, in id order; rows another
     * instance holds are skipped, not waited for.
     */
    claimSweepBatch(ids: readonly string[], now: Date): Promise<Licence[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return this.claimSweepQuery(ids, now);
    },

    claimSweepQuery(ids: readonly string[], now: Date) {
      return db
        .select()
        .from(licences)
        .where(and(inArray(licences.id, [...ids]), lte(licences.nextLifecycleAt, now)))
        .orderBy(asc(licences.id))
        .for('update', { skipLocked: true });
    },

    /**
     * Physically deletes a licence (its tokens and orgs cascade), and when it was the last licence
     * of its address, the sent and failed e-mails to that address (decision 191); its trial claim
     * (a keyed hash, another table) stays.
     */
    async deleteLicence(licenceId: string): Promise<void> {
      await this.deleteLicences([licenceId]);
    },

    /** deleteLicence for many licences in two statements (the lifecycle sweep's batch). */
    async deleteLicences(licenceIds: readonly string[]): Promise<number> {
      if (licenceIds.length === 0) return 0;
      const gone = await db
        .delete(licences)
        .where(inArray(licences.id, [...licenceIds]))
        .returning({ emailNormalized: licences.emailNormalized });
      if (gone.length === 0) return 0;
      // Every spelling of the address: the outbox's own normalized column (decision 211).
      await db.execute(sql`
        delete from ${emailOutbox} o
        using json_to_recordset(${JSON.stringify(gone)}::json) as g("emailNormalized" text)
        where o.to_address_normalized = g."emailNormalized" and o.status <> 'pending'
          and not exists (select 1 from ${licences} l where l.email_normalized = g."emailNormalized")`);
      return gone.length;
    },
  };
}
