import { invoiceReminders } from '#server/platform/db/schema.ts';
import { createOutboxRepository } from '#server/platform/email/outbox-repository.ts';
import { createLicenceRepository } from '#server/licensing/licences/licence-repository.ts';
import { createSubscriptionRepository, type SubscriptionRow } from './subscription-repository.ts';
import { syncSubscription, type SyncDeps } from './sync-subscription.ts';
import { invoiceReminderEmail } from './emails/invoice-reminder-email.ts';
import { invoiceSuspends, remindersDue, suspensionDate } from './invoice-rules.ts';

export interface InvoiceSweepReport {
  reminded: number;
  suspended: number;
  failed: number;
}

/** Overdue invoices read per page; every page is read each run (decision 175). */
export const BATCH_SIZE = 500;

/**
 * The overdue side of pay by invoice (decision 144), run with the hourly lifecycle sweep: for
 * every open invoice past its due date, sends each reminder that is due once (the reminder's
 * key in the same transaction as its e-mail), and once the suspension date has passed re-reads
 * the subscription, whose sync suspends the licence (lifecycle-rules.ts standingAt).
 */
export async function sweepInvoiceReminders(deps: SyncDeps): Promise<InvoiceSweepReport> {
  const report: InvoiceSweepReport = { reminded: 0, suspended: 0, failed: 0 };
  const now = deps.clock();
  const repository = createSubscriptionRepository(deps.db);
  let after: { dueAt: Date; provider: string; subscriptionId: string } | undefined;
  for (;;) {
    const page = await repository.overdueInvoices(now, BATCH_SIZE, after);
    for (const row of page) await remindOrSuspend(row);
    const last = page.at(-1);
    if (page.length < BATCH_SIZE || !last?.openInvoiceDueAt) break;
    after = {
      dueAt: last.openInvoiceDueAt,
      provider: last.provider,
      subscriptionId: last.subscriptionId,
    };
  }
  return report;

  async function remindOrSuspend(row: SubscriptionRow): Promise<void> {
    const dueAt = row.openInvoiceDueAt;
    if (!dueAt || !row.openInvoiceId || !row.licenceId) return;
    const licenceId = row.licenceId;
    const invoiceId = row.openInvoiceId;
    const queued = await deps.db.transaction(async (tx) => {
      const licence = await createLicenceRepository(tx).findById(licenceId);
      if (!licence) return { sent: 0, active: false };
      let sent = 0;
      for (const stage of remindersDue(dueAt, now)) {
        const inserted = await tx
          .insert(invoiceReminders)
          .values({
            provider: row.provider,
            invoiceId,
            stage,
            subscriptionId: row.subscriptionId,
            sentAt: now,
          })
          .onConflictDoNothing()
          .returning({ stage: invoiceReminders.stage });
        if (inserted.length === 0) continue;
        // Only the latest due reminder is worth sending after a long pause of the job.
        if (stage !== remindersDue(dueAt, now).at(-1)) continue;
        await createOutboxRepository(tx).enqueue(
          {
            kind: 'invoice-reminder',
            // The paying address, where the licence is a holder's (decision 223).
            to: row.billingEmail ?? licence.email,
            ...invoiceReminderEmail({
              stage,
              invoice: {
                number: row.openInvoiceNumber ?? invoiceId,
                dueAt,
                url: row.openInvoiceUrl ?? deps.publicBaseUrl,
              },
              licence,
              suspendOn: suspensionDate(dueAt),
              publicBaseUrl: deps.publicBaseUrl,
            }),
          },
          now,
        );
        sent++;
      }
      return { sent, active: licence.status === 'Active' };
    });
    report.reminded += queued.sent;
    if (queued.sent > 0) deps.wakeOutbox();
    if (queued.active && invoiceSuspends(dueAt, now)) {
      try {
        await syncSubscription(deps, row.subscriptionId);
        report.suspended++;
      } catch (error) {
        report.failed++;
        deps.logger.warn(
          { err: error, subscriptionId: row.subscriptionId },
          'could not re-read an overdue invoice subscription',
        );
      }
    }
  }
}
