import { and, asc, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import type { Executor } from '#server/platform/db/database.ts';
import { emailOutbox, licences } from '#server/platform/db/schema.ts';
import type { Licence } from '#server/licensing/licences/licence-repository.ts';
import type { LicenceLifecycle, LicenceStatus } from './lifecycle-rules.ts';

const statuses: readonly LicenceStatus[] = ['Active', 'Deactivated', 'Cancelled'];

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
     * Claims a batch of licences the lifecycle job may have work on at `now` — those whose
     * `next_lifecycle_at` (kept by a trigger, decision 175) has come, found through its partial
     * index — ordered by id after `afterId` (keyset paging); rows another instance holds are
     * skipped, not waited for.
     */
    claimSweepBatch(afterId: string | null, limit: number, now: Date): Promise<Licence[]> {
      const due = lte(licences.nextLifecycleAt, now);
      return db
        .select()
        .from(licences)
        .where(afterId ? and(due, gt(licences.id, afterId)) : due)
        .orderBy(asc(licences.id))
        .limit(limit)
        .for('update', { skipLocked: true });
    },

    /**
     * Physically deletes a licence (its tokens and orgs cascade), and when it was the last licence
     * of its address, the sent and failed e-mails to that address (decision 191); its trial claim
     * (a keyed hash, another table) stays.
     */
    async deleteLicence(licenceId: string): Promise<void> {
      const [gone] = await db
        .delete(licences)
        .where(eq(licences.id, licenceId))
        .returning({ email: licences.email, emailNormalized: licences.emailNormalized });
      if (!gone) return;
      await db.execute(sql`
        delete from ${emailOutbox}
        where lower(to_address) = lower(${gone.email}) and status <> 'pending'
          and not exists (select 1 from ${licences} where email_normalized = ${gone.emailNormalized})`);
    },
  };
}
