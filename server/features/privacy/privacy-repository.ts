import { and, eq, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import {
  auditDetailsOf,
  eraseAuditDetails,
  type AuditSubject,
} from '#server/platform/audit/audit-log-repository.ts';
import type { Executor } from '#server/platform/db/database.ts';
import {
  accessTokens,
  contactMessages,
  emailOutbox,
  invoiceOrders,
  invoiceReminders,
  licenceOrgs,
  licences,
  localCheckoutSessions,
  localCustomers,
  localInvoices,
  paymentDocuments,
  licencePageSessions,
  licencePageSignIns,
  customerViews,
  subscriptionChangeRequests,
  localPortalSessions,
  localSubscriptions,
  paymentEvents,
  privacyRequests,
  quotes,
  subscriptions,
  trialClaims,
} from '#server/platform/db/schema.ts';

/** Whose data: the normalized form of their address and its trial-claim hash. */
export interface DataSubject {
  /** Every address column has this form beside it, indexed (migration 0860, decision 211). */
  normalized: string;
  emailHash: string;
}

const idsIn = (column: PgColumn, values: string[]): SQL =>
  values.length === 0 ? sql`false` : inArray(column, values);

/**
 * Everything held about one person under every spelling of their address: each table by its
 * normalized address column, provider records by licence, customer and subscription ids; each
 * lookup has its index (migrations 0840, 0841, 0860).
 */
export async function findPersonalData(db: Executor, subject: DataSubject) {
  const licenceRows = await db
    .select()
    .from(licences)
    .where(eq(licences.emailNormalized, subject.normalized));
  const licenceIds = licenceRows.map((row) => row.id);
  const orderRows = await db
    .select()
    .from(invoiceOrders)
    .where(eq(invoiceOrders.emailNormalized, subject.normalized));

  const localCustomerRows = await db
    .select()
    .from(localCustomers)
    .where(eq(localCustomers.emailNormalized, subject.normalized));
  const localCustomerIds = localCustomerRows.map((row) => row.id);
  const customerIds = [
    ...new Set([
      ...licenceRows.flatMap((row) => (row.customerId ? [row.customerId] : [])),
      ...localCustomerIds,
    ]),
  ];
  const subscriptionRows = await db
    .select()
    .from(subscriptions)
    .where(
      or(
        idsIn(subscriptions.licenceId, licenceIds),
        idsIn(subscriptions.customerId, customerIds),
        idsIn(
          subscriptions.subscriptionId,
          orderRows.flatMap((row) => (row.subscriptionId ? [row.subscriptionId] : [])),
        ),
        // The payer of a licence made for its holder (decision 223).
        eq(subscriptions.billingEmailNormalized, subject.normalized),
      ),
    );
  const subscriptionIds = subscriptionRows.map((row) => row.subscriptionId);
  const localSubscriptionRows = await db
    .select()
    .from(localSubscriptions)
    .where(idsIn(localSubscriptions.customerId, localCustomerIds));
  const localSubscriptionIds = localSubscriptionRows.map((row) => row.id);
  const [trialClaim] = await db
    .select()
    .from(trialClaims)
    .where(eq(trialClaims.emailHash, subject.emailHash));
  const person = subject.normalized;
  const tokenRows = await db
    .select()
    .from(accessTokens)
    .where(idsIn(accessTokens.licenceId, licenceIds));
  const quoteRows = await db.select().from(quotes).where(eq(quotes.emailNormalized, person));
  const documentRows = await db
    .select()
    .from(paymentDocuments)
    .where(
      or(
        eq(paymentDocuments.buyerEmailNormalized, person),
        idsIn(paymentDocuments.subscriptionId, [...subscriptionIds, ...localSubscriptionIds]),
      ),
    );
  const audit: AuditSubject = {
    normalized: person,
    targets: [
      { type: 'licence', ids: licenceIds },
      { type: 'access_token', ids: tokenRows.map((row) => row.id) },
      { type: 'subscription', ids: subscriptionIds },
      { type: 'invoice_order', ids: orderRows.map((row) => row.id) },
      { type: 'quote', ids: quoteRows.map((row) => row.number) },
      { type: 'document', ids: documentRows.map((row) => row.number) },
    ],
  };
  const holderNamings = await licenceHolderNamingsOf(db, person);
  return {
    licences: licenceRows,
    accessTokens: tokenRows,
    orgs: await db.select().from(licenceOrgs).where(idsIn(licenceOrgs.licenceId, licenceIds)),
    trialClaim: trialClaim ?? null,
    subscriptions: subscriptionRows,
    paymentEvents: await db
      .select()
      .from(paymentEvents)
      .where(idsIn(paymentEvents.subscriptionId, subscriptionIds)),
    invoiceReminders: await db
      .select()
      .from(invoiceReminders)
      .where(idsIn(invoiceReminders.subscriptionId, subscriptionIds)),
    quotes: quoteRows,
    invoiceOrders: orderRows,
    contactMessages: await db
      .select()
      .from(contactMessages)
      .where(eq(contactMessages.emailNormalized, person)),
    emails: await db
      .select()
      .from(emailOutbox)
      .where(
        or(
          eq(emailOutbox.toAddressNormalized, person),
          eq(emailOutbox.replyToNormalized, person),
          // The payers' e-mails naming the person as holder, and the holders' naming them as payer.
          namedInMail(
            holderNamings.map((row) => row.licenceHolderEmail),
            mailsNamingTheHolder,
          ),
          namedInMail(
            subscriptionRows
              .filter((row) => row.billingEmailNormalized === person)
              .map((row) => row.billingEmail),
            mailsNamingThePayer,
          ),
        ),
      ),
    localCustomers: localCustomerRows,
    localSubscriptions: localSubscriptionRows,
    localInvoices: await db
      .select()
      .from(localInvoices)
      .where(
        or(
          idsIn(localInvoices.subscriptionId, localSubscriptionIds),
          eq(localInvoices.billingEmailNormalized, person),
        ),
      ),
    paymentDocuments: documentRows,
    localCheckoutSessions: await db
      .select()
      .from(localCheckoutSessions)
      .where(
        or(
          eq(localCheckoutSessions.customerEmailNormalized, person),
          idsIn(localCheckoutSessions.customerId, localCustomerIds),
        ),
      ),
    localPortalSessions: await db
      .select()
      .from(localPortalSessions)
      .where(idsIn(localPortalSessions.customerId, localCustomerIds)),
    /** The audit events whose details concern the person (decision 224). */
    auditEvents: await auditDetailsOf(db, audit),
    auditSubject: audit,
    licenceHolderNamings: holderNamings,
  };
}

/** The e-mails to a payer that name the licence holder (decision 223). */
const mailsNamingTheHolder = ['invoice-order-confirmation', 'licence-sent-to-holder'];
/** The e-mails to a licence holder that name who paid (decision 223). */
const mailsNamingThePayer = ['licence-key'];

/**
 * E-mails of `kinds` to someone else whose text names the person in one of the spellings an
 * order gave: a body has no normalized form, but these kinds are few and kept 30 days.
 */
function namedInMail(spellings: Array<string | null>, kinds: string[]): SQL {
  const distinct = [...new Set(spellings.flatMap((spelling) => (spelling ? [spelling] : [])))];
  if (distinct.length === 0) return sql`false`;
  return (
    and(
      inArray(emailOutbox.kind, kinds),
      or(
        ...distinct.map(
          (spelling) => sql`position(lower(${spelling}) in lower(${emailOutbox.textBody})) > 0`,
        ),
      ),
    ) ?? sql`false`
  );
}

/**
 * Where an order names the person as a licence's holder (decision 223). The rows are the payer's:
 * of them only the holder's address, and where it stands, is the person's.
 */
async function licenceHolderNamingsOf(db: Executor, person: string) {
  const fields = <T extends { id: PgColumn; licenceHolderEmail: PgColumn; createdAt: PgColumn }>(
    table: T,
  ) => ({ id: table.id, licenceHolderEmail: table.licenceHolderEmail, createdAt: table.createdAt });
  const [orders, sessions, subscriptionRows] = [
    await db
      .select(fields(invoiceOrders))
      .from(invoiceOrders)
      .where(eq(invoiceOrders.licenceHolderEmailNormalized, person)),
    await db
      .select(fields(localCheckoutSessions))
      .from(localCheckoutSessions)
      .where(eq(localCheckoutSessions.licenceHolderEmailNormalized, person)),
    await db
      .select(fields(localSubscriptions))
      .from(localSubscriptions)
      .where(eq(localSubscriptions.licenceHolderEmailNormalized, person)),
  ];
  return [
    ...orders.map((row) => ({ table: 'invoice_orders', ...row })),
    ...sessions.map((row) => ({ table: 'local_checkout_sessions', ...row })),
    ...subscriptionRows.map((row) => ({ table: 'local_subscriptions', ...row })),
  ];
}

export type PersonalData = Awaited<ReturnType<typeof findPersonalData>>;

/** Rows erased or anonymised per table. */
export type ErasureCounts = Record<string, number>;

/**
 * Erases what no law makes us keep (decisions 192, 211), in the caller's transaction: the licences
 * (their tokens and orgs cascade; their subscriptions keep no link), e-mails, contact messages,
 * provider events, quotes never accepted, unconfirmed invoice orders and the test provider's
 * sessions; anonymises the test provider's customer. Invoices, confirmed orders, accepted quotes
 * and subscriptions stay.
 */
export async function erasePersonalData(
  tx: Executor,
  data: PersonalData,
  person: string,
): Promise<ErasureCounts> {
  const ids = <T>(rows: T[], pick: (row: T) => string) => rows.map(pick);
  const count = (rows: unknown[]) => rows.length;
  const localCustomerIds = ids(data.localCustomers, (row) => row.id);
  return {
    // Taken out of the payer's rows, which stay theirs (decision 223); first, as the checkout
    // sessions below may be deleted.
    licence_holder_addresses: await eraseLicenceHolder(tx, person),
    subscription_billing_addresses: count(
      await tx
        .update(subscriptions)
        .set({ billingEmail: null })
        .where(eq(subscriptions.billingEmailNormalized, person))
        .returning({ id: subscriptions.subscriptionId }),
    ),
    access_tokens: data.accessTokens.length,
    licence_orgs: data.orgs.length,
    licence_page_sign_ins: count(
      await tx
        .delete(licencePageSignIns)
        .where(eq(licencePageSignIns.emailNormalized, person))
        .returning({ id: licencePageSignIns.id }),
    ),
    licence_page_sessions: count(
      await tx
        .delete(licencePageSessions)
        .where(eq(licencePageSessions.emailNormalized, person))
        .returning({ id: licencePageSessions.idHash }),
    ),
    subscription_change_requests: count(
      await tx
        .delete(subscriptionChangeRequests)
        .where(eq(subscriptionChangeRequests.emailNormalized, person))
        .returning({ id: subscriptionChangeRequests.id }),
    ),
    customer_views: count(
      await tx
        .delete(customerViews)
        .where(eq(customerViews.emailNormalized, person))
        .returning({ id: customerViews.id }),
    ),
    licences: count(
      await tx
        .delete(licences)
        .where(
          idsIn(
            licences.id,
            ids(data.licences, (row) => row.id),
          ),
        )
        .returning({ id: licences.id }),
    ),
    email_outbox: count(
      await tx
        .delete(emailOutbox)
        .where(
          data.emails.length === 0
            ? sql`false`
            : inArray(
                emailOutbox.id,
                data.emails.map((row) => row.id),
              ),
        )
        .returning({ id: emailOutbox.id }),
    ),
    contact_messages: count(
      await tx
        .delete(contactMessages)
        .where(
          idsIn(
            contactMessages.id,
            ids(data.contactMessages, (row) => row.id),
          ),
        )
        .returning({ id: contactMessages.id }),
    ),
    quotes: count(
      await tx
        .delete(quotes)
        .where(
          and(
            idsIn(
              quotes.number,
              ids(data.quotes, (row) => row.number),
            ),
            ne(quotes.status, 'accepted'),
          ),
        )
        .returning({ number: quotes.number }),
    ),
    payment_events: count(
      await tx
        .delete(paymentEvents)
        .where(
          idsIn(
            paymentEvents.subscriptionId,
            ids(data.subscriptions, (row) => row.subscriptionId),
          ),
        )
        .returning({ id: paymentEvents.eventId }),
    ),
    invoice_orders: count(
      await tx
        .delete(invoiceOrders)
        .where(
          and(
            idsIn(
              invoiceOrders.id,
              ids(data.invoiceOrders, (row) => row.id),
            ),
            ne(invoiceOrders.status, 'confirmed'),
            isNull(invoiceOrders.subscriptionId),
          ),
        )
        .returning({ id: invoiceOrders.id }),
    ),
    local_checkout_sessions: count(
      await tx
        .delete(localCheckoutSessions)
        .where(
          idsIn(
            localCheckoutSessions.id,
            ids(data.localCheckoutSessions, (row) => row.id),
          ),
        )
        .returning({ id: localCheckoutSessions.id }),
    ),
    local_portal_sessions: count(
      await tx
        .delete(localPortalSessions)
        .where(idsIn(localPortalSessions.customerId, localCustomerIds))
        .returning({ id: localPortalSessions.id }),
    ),
    local_customers: count(
      await tx
        .update(localCustomers)
        .set({
          email: 'erased',
          emailNormalized: sql`'erased:' || ${localCustomers.id}`,
          cardBrand: null,
          cardLast4: null,
        })
        .where(idsIn(localCustomers.id, localCustomerIds))
        .returning({ id: localCustomers.id }),
    ),
    // Last: the deletions above wrote audit events of the same records (decision 224).
    audit_event_details: await eraseAuditDetails(tx, data.auditSubject),
  };
}

/** Takes a licence holder's address out of the orders that name it (decision 223). */
async function eraseLicenceHolder(tx: Executor, person: string): Promise<number> {
  const orders = await tx
    .update(invoiceOrders)
    .set({ licenceHolderEmail: null })
    .where(eq(invoiceOrders.licenceHolderEmailNormalized, person))
    .returning({ id: invoiceOrders.id });
  const sessions = await tx
    .update(localCheckoutSessions)
    .set({ licenceHolderEmail: null })
    .where(eq(localCheckoutSessions.licenceHolderEmailNormalized, person))
    .returning({ id: localCheckoutSessions.id });
  const localSubscriptionRows = await tx
    .update(localSubscriptions)
    .set({ licenceHolderEmail: null })
    .where(eq(localSubscriptions.licenceHolderEmailNormalized, person))
    .returning({ id: localSubscriptions.id });
  return orders.length + sessions.length + localSubscriptionRows.length;
}

/** Records an export or erasure (decision 193): a keyed hash for whom, counts for what. */
export async function recordPrivacyRequest(
  db: Executor,
  request: {
    id: string;
    kind: 'export' | 'erase';
    subjectHash: string;
    dryRun: boolean;
    summary: Record<string, unknown>;
    performedAt: Date;
  },
): Promise<void> {
  await db.insert(privacyRequests).values(request);
}
