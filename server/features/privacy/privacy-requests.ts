import { randomUUID } from 'node:crypto';
import {
  syncSubscription,
  type SyncDeps,
} from '#server/billing/subscriptions/sync-subscription.ts';
import { keyedHash } from '#server/platform/crypto/keyed-hash.ts';
import { deleteMailFiles, mailFilesOf, type MailFile } from '#server/platform/email/mail-files.ts';
import {
  hashEmailAddress,
  normalizeEmailAddress,
} from '#server/platform/email/normalize-email-address.ts';
import {
  erasePersonalData,
  findPersonalData,
  recordPrivacyRequest,
  type DataSubject,
  type ErasureCounts,
  type PersonalData,
} from './privacy-repository.ts';
import { retentionPolicy } from './retention-policy.ts';

/** Subscription states in which the provider charges nothing more. */
const finished = new Set(['canceled', 'incomplete_expired']);

export function dataSubjectOf(secretKey: string, address: string): DataSubject {
  const normalized = normalizeEmailAddress(address);
  return { normalized, emailHash: hashEmailAddress(secretKey, normalized) };
}

/** The `.eml` files of e-mails to or for the person (written when no SMTP_URL is set). */
function mailFilesOfSubject(
  dataDir: string,
  subject: DataSubject,
  data: PersonalData,
): Promise<MailFile[]> {
  return mailFilesOf(dataDir, {
    normalized: subject.normalized,
    messageIds: data.emails.map((row) => row.messageId),
  });
}

/** The audit key of a subject: never the address (decision 193). */
function subjectHash(secretKey: string, subject: DataSubject): string {
  return keyedHash(secretKey, 'privacy-request', subject.normalized);
}

/** Counts per part of an export, for the audit row and the operator. */
function countsOf(data: PersonalData, mailFiles: readonly MailFile[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [key, value] of Object.entries(data)) {
    if (key === 'auditSubject') continue;
    counts[key] = Array.isArray(value) ? value.length : value ? 1 : 0;
  }
  counts.mailFiles = mailFiles.length;
  return counts;
}

/** Drops what stands in for a secret (key, token and link hashes): not the person's data. */
function withoutSecrets<T extends { keyHash?: string; tokenHash?: string }>(
  rows: T[],
): Array<Omit<T, 'keyHash' | 'tokenHash'>> {
  return rows.map(({ keyHash: _key, tokenHash: _token, ...rest }) => rest);
}

/** Everything held about an address (GDPR Art. 15, 20), recorded without the address. */
export async function exportPersonalData(
  deps: { db: SyncDeps['db']; secretKey: string; clock: () => Date; dataDir: string },
  address: string,
) {
  const subject = dataSubjectOf(deps.secretKey, address);
  const data = await findPersonalData(deps.db, subject);
  const mailFiles = await mailFilesOfSubject(deps.dataDir, subject, data);
  const now = deps.clock();
  const counts = countsOf(data, mailFiles);
  await recordPrivacyRequest(deps.db, {
    id: randomUUID(),
    kind: 'export',
    subjectHash: subjectHash(deps.secretKey, subject),
    dryRun: false,
    summary: counts,
    performedAt: now,
  });
  return {
    counts,
    document: {
      exportedAt: now.toISOString(),
      emailAddress: address.trim(),
      normalizedEmailAddress: subject.normalized,
      licences: withoutSecrets(data.licences),
      accessTokens: withoutSecrets(data.accessTokens),
      orgs: data.orgs,
      trialClaim: data.trialClaim
        ? {
            claimedAt: data.trialClaim.claimedAt,
            firstLicenceType: data.trialClaim.firstLicenceType,
          }
        : null,
      subscriptions: data.subscriptions,
      paymentEvents: data.paymentEvents,
      invoiceReminders: data.invoiceReminders,
      quotes: withoutSecrets(data.quotes),
      invoiceOrders: withoutSecrets(data.invoiceOrders),
      invoices: data.localInvoices,
      // The invoices and receipts to file, as issued (decision 180).
      paymentDocuments: data.paymentDocuments.map((row) => row.document),
      contactMessages: data.contactMessages,
      // E-mails as sent: address, subject, state and times; bodies may hold a licence key.
      emailsSent: data.emails.map((row) => ({
        kind: row.kind,
        // An e-mail to someone else that names the person (a licence's payer or holder, decision
        // 223): the other's address is not theirs to see.
        to:
          row.toAddressNormalized === subject.normalized ||
          row.replyToNormalized === subject.normalized
            ? row.toAddress
            : 'another recipient',
        replyTo: row.replyTo,
        subject: row.subject,
        status: row.status,
        createdAt: row.createdAt,
        sentAt: row.sentAt,
      })),
      // Who changed their records, when and why (decision 224).
      auditTrail: data.auditEvents,
      // E-mails written to $DATA_DIR/mail when no SMTP server is configured.
      mailFiles: mailFiles.map((mail) => ({ file: mail.name, createdAt: mail.createdAt })),
      // Orders that name the person as a licence's holder: only that address is theirs.
      licenceHolderOf: data.licenceHolderNamings,
      testProvider: {
        customers: data.localCustomers,
        subscriptions: data.localSubscriptions,
        checkoutSessions: data.localCheckoutSessions,
        portalSessions: data.localPortalSessions,
      },
    },
  };
}

export type ErasureResult =
  | { ok: false; reason: string }
  | {
      ok: true;
      dryRun: boolean;
      /** Subscriptions ended at the provider first (none on a dry run). */
      ended: string[];
      /** On a dry run, the subscriptions an erasure would end. */
      toEnd: string[];
      erased: ErasureCounts;
      kept: Array<{ table: string; rows: number; why: string }>;
    };

/** What stays after an erasure, and the law or reason (from the retention policy). */
function keptOf(data: PersonalData): Array<{ table: string; rows: number; why: string }> {
  const rows: Record<string, number> = {
    trial_claims: data.trialClaim ? 1 : 0,
    subscriptions: data.subscriptions.length,
    invoice_reminders: data.invoiceReminders.length,
    quotes: data.quotes.filter((quote) => quote.status === 'accepted').length,
    invoice_orders: data.invoiceOrders.filter(
      (order) => order.status === 'confirmed' || order.subscriptionId !== null,
    ).length,
    local_invoices: data.localInvoices.length,
    payment_documents: data.paymentDocuments.length,
    local_subscriptions: data.localSubscriptions.length,
  };
  return retentionPolicy.flatMap((entry) => {
    const count = rows[entry.table] ?? 0;
    return typeof entry.onErasure === 'object' && count > 0
      ? [{ table: entry.table, rows: count, why: entry.onErasure.kept }]
      : [];
  });
}

/**
 * Erases or anonymises what no law makes us keep about an address (GDPR Art. 17, decision 192).
 * Running subscriptions are ended at the provider first and re-read (so the licence ends as
 * with any cancellation); when the provider refuses, nothing is erased and the reason is
 * returned. Recorded without the address, a dry run too.
 */
export async function erasePersonalDataOf(
  deps: SyncDeps & { secretKey: string; dataDir: string },
  address: string,
  options: { dryRun: boolean },
): Promise<ErasureResult> {
  const subject = dataSubjectOf(deps.secretKey, address);
  const before = await findPersonalData(deps.db, subject);
  const running = before.subscriptions
    .filter((row) => row.provider === deps.payments.name && !finished.has(row.status))
    .map((row) => row.subscriptionId);
  const foreign = before.subscriptions.find(
    (row) => row.provider !== deps.payments.name && !finished.has(row.status),
  );
  if (foreign) {
    return {
      ok: false,
      reason: `Subscription ${foreign.subscriptionId} runs at ${foreign.provider}, not at the configured provider ${deps.payments.name}: end it there first.`,
    };
  }
  const ended: string[] = [];
  if (!options.dryRun) {
    for (const subscriptionId of running) {
      try {
        await deps.payments.cancelSubscription(subscriptionId);
        await syncSubscription(deps, subscriptionId);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return {
          ok: false,
          reason: `The payment provider did not end subscription ${subscriptionId} (${message}); nothing was erased${ended.length > 0 ? `, but ${ended.join(', ')} ended` : ''}.`,
        };
      }
      ended.push(subscriptionId);
    }
  }
  // Read again: ending a subscription may have queued e-mails to the address.
  const data = options.dryRun ? before : await findPersonalData(deps.db, subject);
  const kept = keptOf(data);
  const mailFiles = await mailFilesOfSubject(deps.dataDir, subject, data);
  const now = deps.clock();
  const erased = await deps.db.transaction(async (tx) => {
    const counts = options.dryRun
      ? dryCounts(data, subject.normalized)
      : await erasePersonalData(tx, data, subject.normalized);
    // Files cannot join the transaction: they are deleted once it has committed (below).
    counts.mail_files = mailFiles.length;
    await recordPrivacyRequest(tx, {
      id: randomUUID(),
      kind: 'erase',
      subjectHash: subjectHash(deps.secretKey, subject),
      dryRun: options.dryRun,
      summary: {
        ended: ended.length,
        erased: counts,
        kept: Object.fromEntries(kept.map((k) => [k.table, k.rows])),
      },
      performedAt: now,
    });
    return counts;
  });
  if (!options.dryRun) {
    // Listed again: the worker may have written one more while the transaction ran.
    erased.mail_files = await deleteMailFiles(
      await mailFilesOfSubject(deps.dataDir, subject, data),
    );
  }
  return {
    ok: true,
    dryRun: options.dryRun,
    ended,
    toEnd: options.dryRun ? running : [],
    erased,
    kept,
  };
}

/** What an erasure would erase, without erasing. */
function dryCounts(data: PersonalData, person: string): ErasureCounts {
  return {
    licence_holder_addresses: data.licenceHolderNamings.length,
    subscription_billing_addresses: data.subscriptions.filter(
      (row) => row.billingEmailNormalized === person,
    ).length,
    access_tokens: data.accessTokens.length,
    licence_orgs: data.orgs.length,
    licences: data.licences.length,
    email_outbox: data.emails.length,
    contact_messages: data.contactMessages.length,
    quotes: data.quotes.filter((quote) => quote.status !== 'accepted').length,
    payment_events: data.paymentEvents.length,
    invoice_orders: data.invoiceOrders.filter(
      (order) => order.status !== 'confirmed' && order.subscriptionId === null,
    ).length,
    local_checkout_sessions: data.localCheckoutSessions.length,
    local_portal_sessions: data.localPortalSessions.length,
    local_customers: data.localCustomers.length,
    audit_event_details: data.auditEvents.length,
  };
}
