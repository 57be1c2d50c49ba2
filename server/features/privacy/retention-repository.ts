import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '#server/platform/db/database.ts';
import {
  contactMessages,
  emailOutbox,
  invoiceOrders,
  invoiceReminders,
  licenceOrgs,
  localCheckoutSessions,
  localCredits,
  localInvoices,
  localPortalSessions,
  localSubscriptions,
  paymentDocuments,
  paymentEvents,
  providerCalls,
  privacyRequests,
  auditEventDetails,
  licenceOrgReleases,
  licencePageSessions,
  licencePageSignIns,
  customerViews,
  subscriptionChangeRequests,
  quotes,
  subscriptions,
} from '#server/platform/db/schema.ts';
import { allowAuditErasure } from '#server/platform/audit/audit-log-repository.ts';
import { daysBefore, retentionPeriods as R, yearEndCutoff } from './retention-policy.ts';

/** One kind of row the retention job deletes: the table, its key and the (indexed) predicate. */
export interface RetentionRule {
  name: string;
  table: SQL;
  /** The primary key columns, unqualified: `(key) in (select key … limit n)`. */
  key: SQL;
  where: SQL;
  /** Its rows are audit details, which the database deletes only when told (decision 224). */
  auditDetails?: true;
}

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/** Every deletion of the retention policy (decision 191) at `now`; each predicate has its index (0840). */
export function retentionRules(now: Date): RetentionRule[] {
  const invoices = at(yearEndCutoff(now, R.invoiceYears));
  const letters = at(yearEndCutoff(now, R.commercialLetterYears));
  return [
    {
      name: 'email_outbox sent',
      table: sql`${emailOutbox}`,
      key: sql.raw('id'),
      where: sql`status = 'sent' and sent_at < ${at(daysBefore(now, R.emailDays))}`,
    },
    {
      name: 'email_outbox failed',
      table: sql`${emailOutbox}`,
      key: sql.raw('id'),
      where: sql`status = 'failed' and created_at < ${at(daysBefore(now, R.emailDays))}`,
    },
    {
      name: 'payment_events',
      table: sql`${paymentEvents}`,
      key: sql.raw('provider, event_id'),
      where: sql`processed_at < ${at(daysBefore(now, R.paymentEventDays))}`,
    },
    {
      name: 'provider_calls given up',
      table: sql`${providerCalls}`,
      key: sql.raw('id'),
      where: sql`status = 'failed' and next_attempt_at < ${at(daysBefore(now, R.paymentEventDays))}`,
    },
    {
      name: 'contact_messages',
      table: sql`${contactMessages}`,
      key: sql.raw('id'),
      where: sql`created_at < ${at(daysBefore(now, R.contactMessageDays))}`,
    },
    {
      name: 'licence_orgs',
      table: sql`${licenceOrgs}`,
      key: sql.raw('licence_id, org_id'),
      where: sql`last_seen_at < ${at(daysBefore(now, R.idleOrgDays))}`,
    },
    {
      name: 'invoice_orders unconfirmed',
      table: sql`${invoiceOrders}`,
      key: sql.raw('id'),
      where: sql`created_at < ${at(daysBefore(now, R.unconfirmedOrderDays))} and status <> 'confirmed' and subscription_id is null`,
    },
    {
      name: 'invoice_orders',
      table: sql`${invoiceOrders}`,
      key: sql.raw('id'),
      where: sql`created_at < ${letters}`,
    },
    {
      name: 'quotes',
      table: sql`${quotes}`,
      key: sql.raw('number'),
      where: sql`created_at < ${letters}`,
    },
    {
      name: 'invoice_reminders',
      table: sql`${invoiceReminders}`,
      key: sql.raw('provider, invoice_id, stage'),
      where: sql`sent_at < ${invoices}`,
    },
    {
      name: 'subscriptions',
      table: sql`${subscriptions}`,
      key: sql.raw('provider, subscription_id'),
      where: sql`licence_id is null and ended_at < ${invoices}`,
    },
    {
      name: 'local_credits',
      table: sql`${localCredits}`,
      key: sql.raw('id'),
      where: sql`created_at < ${invoices}`,
    },
    {
      name: 'local_invoices',
      table: sql`${localInvoices}`,
      key: sql.raw('id'),
      where: sql`created_at < ${invoices}`,
    },
    {
      name: 'payment_documents',
      table: sql`${paymentDocuments}`,
      key: sql.raw('number'),
      where: sql`created_at < ${invoices}`,
    },
    {
      name: 'local_subscriptions',
      table: sql`${localSubscriptions}`,
      key: sql.raw('id'),
      where: sql`ended_at < ${invoices}
        and not exists (select 1 from ${localInvoices} i where i.subscription_id = ${localSubscriptions}.id)`,
    },
    {
      name: 'local_checkout_sessions',
      table: sql`${localCheckoutSessions}`,
      key: sql.raw('id'),
      where: sql`expires_at < ${at(daysBefore(now, R.localSessionDays))}`,
    },
    {
      name: 'local_portal_sessions',
      table: sql`${localPortalSessions}`,
      key: sql.raw('id'),
      where: sql`expires_at < ${at(daysBefore(now, R.localSessionDays))}`,
    },
    {
      name: 'privacy_requests',
      table: sql`${privacyRequests}`,
      key: sql.raw('id'),
      where: sql`performed_at < ${at(yearEndCutoff(now, R.privacyRequestYears))}`,
    },
    {
      name: 'licence_org_releases',
      table: sql`${licenceOrgReleases}`,
      key: sql.raw('id'),
      where: sql`released_at < ${at(daysBefore(now, R.orgReleaseDays))}`,
    },
    {
      name: 'licence_page_sign_ins',
      table: sql`${licencePageSignIns}`,
      key: sql.raw('id'),
      where: sql`expires_at < ${at(daysBefore(now, R.licencePageSignInDays))}`,
    },
    {
      name: 'licence_page_sessions',
      table: sql`${licencePageSessions}`,
      key: sql.raw('id_hash'),
      where: sql`expires_at < ${at(daysBefore(now, R.licencePageSignInDays))}`,
    },
    {
      name: 'subscription_change_requests',
      table: sql`${subscriptionChangeRequests}`,
      key: sql.raw('id'),
      where: sql`answered_at < ${at(daysBefore(now, R.changeRequestDays))}`,
    },
    {
      name: 'customer_views',
      table: sql`${customerViews}`,
      key: sql.raw('id'),
      where: sql`expires_at < ${at(daysBefore(now, R.customerViewDays))}`,
    },
    {
      name: 'audit_event_details',
      table: sql`${auditEventDetails}`,
      key: sql.raw('event_id'),
      where: sql`occurred_at < ${at(yearEndCutoff(now, R.auditDetailYears))}`,
      auditDetails: true,
    },
  ];
}

/** Both drivers answer `execute` with `{ rows }`. */
const deletedCount = z.object({ rows: z.array(z.object({ deleted: z.coerce.number() })) });

/** Rows deleted per statement: short transactions and locks, however many rows are due. */
export const RETENTION_BATCH_SIZE = 2000;

/** Deletes one batch of a rule's rows; returns how many (counted in the database). */
export async function deleteRetentionBatch(
  db: Executor,
  rule: RetentionRule,
  batchSize = RETENTION_BATCH_SIZE,
): Promise<number> {
  const statement = sql`
    with gone as (
      delete from ${rule.table}
      where (${rule.key}) in (select ${rule.key} from ${rule.table} where ${rule.where} limit ${batchSize})
      returning 1
    )
    select count(*)::int as deleted from gone`;
  const result = rule.auditDetails
    ? await db.transaction(async (tx) => {
        await allowAuditErasure(tx);
        return tx.execute(statement);
      })
    : await db.execute(statement);
  return deletedCount.parse(result).rows[0]?.deleted ?? 0;
}
