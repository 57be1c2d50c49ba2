import { createOutboxRepository } from '#server/platform/email/outbox-repository.ts';
import type { SyncDeps } from '#server/billing/subscriptions/sync-subscription.ts';
import type { ProviderCallKind } from '#server/platform/db/schema.ts';
import { createProviderCallRepository } from './provider-call-repository.ts';
import { runProviderCalls } from './provider-calls.ts';
import { lifecycleEmail } from './emails/lifecycle-emails.ts';
import { createLifecycleRepository, lifecycleOf, type DueCursor } from './lifecycle-repository.ts';
import { sweepStep } from './lifecycle-rules.ts';

export interface SweepReport {
  scheduledForDeletion: number;
  deleted: number;
  /** Subscriptions cancelled and re-read by the provider calls made after the run (decision 246). */
  cancelled: number;
  resynced: number;
  /** Provider calls that failed (tried again later, or given up). */
  failed: number;
}

const BATCH_SIZE = 100;
/**
 * Due rows read at a time: a run reads page after page until the rows due at its start are done,
 * so its work follows the due count, not a fixed cap (decision 242).
 */
export const DUE_PAGE_SIZE = 10_000;

/**
 * The hourly lifecycle job (docs/product-rules.md#behaviour): marks lapsed licences past the two-month window (and ended
 * ones past retention) for deletion, deletes those whose month of notice is over, and re-reads
 * subscriptions that should have renewed. The due ids are read page by page through their index
 * (every row due at the start, however many: decision 242), then claimed by primary key with
 * SKIP LOCKED in batches, so several instances can run it at once;
 * each change and its e-mail share one transaction.
 */
export async function sweepLicenceLifecycle(deps: SyncDeps): Promise<SweepReport> {
  const report: SweepReport = {
    scheduledForDeletion: 0,
    deleted: 0,
    cancelled: 0,
    resynced: 0,
    failed: 0,
  };
  // The rows due when the run starts; rows that become due meanwhile wait for the next run.
  const startedAt = deps.clock();
  let after: DueCursor | null = null;
  for (;;) {
    const page = await createLifecycleRepository(deps.db).dueLicencePage(
      startedAt,
      after,
      DUE_PAGE_SIZE,
    );
    after = page.at(-1) ?? null;
    // Claimed in id order, as every instance does: two runs never wait on each other's rows.
    await sweepPage(deps, page.map((row) => row.id).sort(), report);
    if (page.length < DUE_PAGE_SIZE) break;
  }
  // The provider calls the batches queued, made now outside the transactions (decision 246);
  // those that fail wait for the provider-calls job.
  const calls = await runProviderCalls(deps);
  report.cancelled = calls.cancelled;
  report.resynced = calls.resynced;
  report.failed = calls.failed;
  return report;
}

/** Claims and works one page of due licences in batches, each in a transaction with its e-mails. */
async function sweepPage(
  deps: SyncDeps,
  due: readonly string[],
  report: SweepReport,
): Promise<void> {
  for (let start = 0; start < due.length; start += BATCH_SIZE) {
    const now = deps.clock();
    const batch = await deps.db.transaction(async (tx) => {
      const repository = createLifecycleRepository(tx);
      const outbox = createOutboxRepository(tx);
      const claimed = await repository.claimSweepBatch(due.slice(start, start + BATCH_SIZE), now);
      let queued = 0;
      const toDelete: string[] = [];
      // Queued with the change that decided them: a crash after the commit loses no call.
      const calls: { kind: ProviderCallKind; subscriptionId: string }[] = [];
      for (const licence of claimed) {
        const step = sweepStep(lifecycleOf(licence), now);
        switch (step.action) {
          case 'delete':
            toDelete.push(licence.id);
            break;
          case 'scheduleDeletion': {
            await repository.saveLifecycle(licence.id, step.licence, now);
            for (const event of step.events) {
              const email = lifecycleEmail(
                event,
                {
                  email: licence.email,
                  edition: licence.edition,
                  quantity: licence.quantity,
                  keyHint: licence.keyHint,
                  paidUntil: licence.expiresAt,
                },
                deps.publicBaseUrl,
              );
              if (email) {
                await outbox.enqueue(email, now);
                queued++;
              }
            }
            if (step.cancelSubscription && licence.subscriptionId) {
              calls.push({ kind: 'cancel', subscriptionId: licence.subscriptionId });
            }
            report.scheduledForDeletion++;
            break;
          }
          case 'cancelSubscription':
            if (licence.subscriptionId) {
              calls.push({ kind: 'cancel', subscriptionId: licence.subscriptionId });
            }
            break;
          case 'resync':
            if (licence.subscriptionId) {
              calls.push({ kind: 'resync', subscriptionId: licence.subscriptionId });
            }
            break;
          case 'none':
            break;
        }
      }
      // The batch's deletions in two statements, not two per licence.
      report.deleted += await repository.deleteLicences(toDelete);
      await createProviderCallRepository(tx).enqueue(calls, now);
      return { queued };
    });
    if (batch.queued > 0) deps.wakeOutbox();
  }
}
