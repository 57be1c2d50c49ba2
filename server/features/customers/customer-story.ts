import { ORG_ACTIVE_DAYS } from '#server/licensing/licences/check-licence.ts';
import { licenceState } from '#server/licensing/licences/licence-state.ts';
import { licenceEntitlements } from '#server/licensing/licence-validation/licence-entitlements.ts';
import type { Executor } from '#server/platform/db/database.ts';
import { findPersonalData } from '../privacy/privacy-repository.ts';
import { dataSubjectOf } from '../privacy/privacy-requests.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Rows newest first by `at`. */
function newestFirst<T>(rows: readonly T[], at: (row: T) => Date): T[] {
  return [...rows].sort((a, b) => at(b).getTime() - at(a).getTime());
}

/**
 * A customer's whole story on one page (issue 40, decision 227): everything held about one person
 * under every spelling of their address — the same reading as `privacy export`, so the page and
 * the export never disagree — shaped for support, without secrets (no key, token or link hashes).
 * Null when nothing is held.
 */
export async function customerStory(
  deps: { db: Executor; secretKey: string; clock: () => Date },
  address: string,
) {
  const subject = dataSubjectOf(deps.secretKey, address);
  const data = await findPersonalData(deps.db, subject);
  const now = deps.clock();
  const activeSince = new Date(now.getTime() - ORG_ACTIVE_DAYS * DAY_MS);
  const held =
    data.licences.length +
    data.invoiceOrders.length +
    data.quotes.length +
    data.paymentDocuments.length +
    data.contactMessages.length +
    data.emails.length;
  if (held === 0) return null;
  const spellings = [
    ...new Set([
      ...data.licences.map((row) => row.email),
      ...data.invoiceOrders.map((row) => row.billingEmail),
      ...data.quotes.map((row) => row.email),
      ...data.paymentDocuments.map((row) => row.buyerEmail),
    ]),
  ];
  return {
    customer: subject.normalized,
    spellings,
    licences: newestFirst(data.licences, (row) => row.createdAt).map((licence) => {
      const orgs = data.orgs.filter((org) => org.licenceId === licence.id);
      return {
        id: licence.id,
        type: licence.type,
        edition: licence.edition,
        quantity: licence.quantity,
        status: licence.status,
        state: licenceState(licence, now),
        maskedKey: `ORGS-…-${licence.keyHint}`,
        email: licence.email,
        expiresAt: licence.expiresAt,
        createdAt: licence.createdAt,
        revokedAt: licence.revokedAt,
        revocationReason: licence.revocationReason,
        suspended: licence.suspended,
        subscriptionId: licence.subscriptionId,
        orgLimit: licenceEntitlements(licence).orgs,
        orgsInUse: orgs.filter((org) => org.lastSeenAt >= activeSince).length,
        orgs: newestFirst(orgs, (org) => org.lastSeenAt).map((org) => ({
          orgId: org.orgId,
          firstSeenAt: org.firstSeenAt,
          lastSeenAt: org.lastSeenAt,
          /** It holds a slot of the quota until then (30 days after it last validated). */
          countsUntil: new Date(org.lastSeenAt.getTime() + ORG_ACTIVE_DAYS * DAY_MS),
        })),
        tokens: data.accessTokens
          .filter((token) => token.licenceId === licence.id)
          .map((token) => ({
            id: token.id,
            name: token.name,
            hint: token.tokenHint,
            createdAt: token.createdAt,
            lastUsedAt: token.lastUsedAt,
            revokedAt: token.revokedAt,
          })),
      };
    }),
    subscriptions: data.subscriptions.map((row) => ({
      provider: row.provider,
      subscriptionId: row.subscriptionId,
      customerId: row.customerId,
      status: row.status,
      edition: row.edition,
      quantity: row.quantity,
      billingPeriod: row.billingPeriod,
      currency: row.currency,
      collection: row.collection,
      currentPeriodEnd: row.currentPeriodEnd,
      cancelAtPeriodEnd: row.cancelAtPeriodEnd,
      endedAt: row.endedAt,
      openInvoiceNumber: row.openInvoiceNumber,
    })),
    invoiceOrders: newestFirst(data.invoiceOrders, (row) => row.createdAt).map((row) => ({
      id: row.id,
      status: row.status,
      billingEmail: row.billingEmail,
      createdAt: row.createdAt,
      confirmedAt: row.confirmedAt,
      cancelledAt: row.cancelledAt,
      invoiceNumber: row.invoiceNumber,
      quoteNumber: row.quoteNumber,
    })),
    quotes: newestFirst(data.quotes, (row) => row.createdAt).map((row) => ({
      number: row.number,
      status: row.status,
      companyName: row.companyName,
      edition: row.edition,
      quantity: row.quantity,
      currency: row.currency,
      totalCents: row.totalCents,
      quoteDate: row.quoteDate,
      validUntil: row.validUntil,
    })),
    documents: newestFirst(data.paymentDocuments, (row) => row.createdAt).map((row) => ({
      number: row.number,
      kind: row.kind,
      buyerEmail: row.buyerEmail,
      issuedOn: row.issuedOn,
      currency: row.currency,
      grossMinor: row.grossMinor,
      paidAt: row.paidAt,
      creditsNumber: row.creditsNumber,
    })),
    emails: newestFirst(data.emails, (row) => row.createdAt).map((row) => ({
      kind: row.kind,
      to: row.toAddress,
      subject: row.subject,
      status: row.status,
      attempts: row.attempts,
      createdAt: row.createdAt,
      sentAt: row.sentAt,
    })),
    contactMessages: data.contactMessages.length,
    audit: [...data.auditEvents].reverse(),
  };
}

export type CustomerStory = NonNullable<Awaited<ReturnType<typeof customerStory>>>;
