import { siteConfig } from '#shared/site-config.ts';
import type { Database, Executor } from '#server/platform/db/database.ts';
import type { BillingPorts } from '#server/billing/billing-ports.ts';
import {
  createOutboxRepository,
  type QueuedEmail,
} from '#server/platform/email/outbox-repository.ts';
import { createFreeLicenceRepository } from '#server/licensing/licences/free-licence-repository.ts';
import { issueLicence } from '#server/licensing/licences/issue-licence.ts';
import {
  createLicenceRepository,
  type Licence,
} from '#server/licensing/licences/licence-repository.ts';
import {
  licenceKeyEmail,
  licenceSentToHolderEmail,
  lifecycleEmail,
  trialConvertedEmail,
} from '#server/billing/subscriptions/emails/lifecycle-emails.ts';
import {
  createLifecycleRepository,
  lifecycleOf,
} from '#server/billing/subscriptions/lifecycle-repository.ts';
import {
  applySubscription,
  licenceChanged,
  licenceTypeForEdition,
  standingAt,
  type SubscriptionTerms,
} from '#server/billing/subscriptions/lifecycle-rules.ts';
import { normalizeEmailAddress } from '#server/platform/email/normalize-email-address.ts';
import { maskAddressesIn } from '#server/platform/email/mask-address.ts';
import type { Logger } from '#server/platform/logger.ts';
import type { BankAccounts } from '#server/billing/bank-accounts.ts';
import { issuePaymentDocuments } from '#server/billing/documents/issue-payment-documents.ts';
import { paymentDocumentUrl } from '#server/billing/documents/payment-document-link.ts';
import {
  paymentDocumentEmail,
  paymentReceivedEmail,
} from '#server/billing/documents/emails/payment-document-email.ts';
import { calendarDateIn } from '#server/billing/calendar-date.ts';
import type { DocumentLink } from '#server/billing/documents/payment-document.ts';
import { createQuoteRepository } from '#server/billing/quotes/quote-repository.ts';
import { createKeepTrialToken, keepTrialUrl } from './keep-trial-link.ts';
import { isPaymentError } from './payment-errors.ts';
import type { PaymentProvider } from './payment-provider.ts';
import type { PaymentEvent, SubscriptionSnapshot } from './payment-types.ts';
import { createSubscriptionRepository, termsOfRow } from './subscription-repository.ts';

export interface SyncDeps {
  db: Database;
  payments: PaymentProvider;
  clock: () => Date;
  secretKey: string;
  publicBaseUrl: string;
  /** Where the account service answers (ACCOUNT_API_URL, else the site): e-mails' API examples. */
  accountBaseUrl: string;
  logger: Logger;
  /** Asks the outbox worker to deliver soon (after e-mails were queued). */
  wakeOutbox: () => void;
  /** The seller's account per invoice currency, printed on invoices (decision 218). */
  bankAccounts: BankAccounts;
}

export type SyncOutcome =
  /** The subscription's current state is applied to its licence. */
  | 'applied'
  /** This event was processed before: nothing to do. */
  | 'duplicate'
  /** A newer read of the subscription was applied meanwhile: this older one is dropped. */
  | 'stale'
  /** The first payment is not made yet: no licence until it is. */
  | 'pending'
  /** No licence (any more) for this subscription, or it concerns none. */
  | 'ignored';

export interface SyncResult {
  outcome: SyncOutcome;
  licenceId: string | null;
  /** Each of our documents this sync e-mailed a link to, and to whom (decision 218). */
  documentsSent?: Array<{ number: string; to: string }>;
}

/** A new free licence its recipient has had enough of today: none is written (decision 158). */
const OVER_FREE_LIMIT = 'over-free-limit';

interface Attached {
  licence: Licence;
  origin: 'issued' | 'converted';
  email: QueuedEmail;
  /** Issued for a licence holder: the billing address's note that the key went to them. */
  billingNote?: QueuedEmail;
}

/**
 * The licence holder of a paid subscription (decision 223): the address its order named for the
 * licence, unless that is the paying mailbox (then none) or the plan is free (its licence goes to
 * whoever orders it). Null also while the paying address is unknown: nobody gets a licence then.
 */
export function licenceHolderOf(snapshot: SubscriptionSnapshot): string | null {
  const holder = snapshot.licenceHolderEmail?.trim();
  if (!holder || !snapshot.customerEmail) return null;
  if (licenceTypeForEdition(snapshot.edition) !== 'Paid') return null;
  const same = normalizeEmailAddress(holder) === normalizeEmailAddress(snapshot.customerEmail);
  return same ? null : holder;
}

function termsOf(snapshot: SubscriptionSnapshot): SubscriptionTerms {
  return {
    status: snapshot.status,
    edition: snapshot.edition,
    quantity: snapshot.quantity,
    currentPeriodEnd: snapshot.currentPeriodEnd,
    cancelAtPeriodEnd: snapshot.cancelAtPeriodEnd,
    endedAt: snapshot.endedAt,
    endedForNonPayment: snapshot.endedForNonPayment,
    collection: snapshot.collection,
    unpaidInvoiceDueAt: snapshot.openInvoice?.dueAt ?? null,
  };
}

/**
 * A trial of the buyer's address is converted without its key being named only when its mailbox
 * confirmed the purchase and money was received: a paid invoice of an order the billing address
 * confirmed by its e-mailed link (decisions 153, 161, 213). A card checkout proves neither who
 * typed the address nor that they read its mail.
 */
export function mayConvertByAddress(snapshot: SubscriptionSnapshot): boolean {
  return (
    licenceTypeForEdition(snapshot.edition) === 'Paid' &&
    snapshot.collection === 'invoice' &&
    snapshot.paymentReceived
  );
}

/** Whether a licence is a trial no subscription has taken over (and not revoked). */
function isConvertibleTrial(licence: Licence): boolean {
  return licence.type === 'Trial' && licence.subscriptionId === null && !licence.revokedAt;
}

/**
 * Gives a new subscription its licence, in order of precedence (decision 213): the trial named
 * at checkout (the key is the proof); for a paid invoice order its mailbox confirmed, a trial of
 * the same (normalized) address; else a new licence whose key is e-mailed. A paid purchase with
 * the address of a trial (a card, an invoice not paid yet) gets a new licence too, and its e-mail
 * offers the mailbox a signed link to keep the trial key instead (`keepTrialKey`). A converted
 * trial keeps its key. A licence holder named by the order (decision 223) gets the new licence
 * and its key, and the offer to keep a trial of theirs; the billing address gets a note naming
 * the holder with the payment's document.
 * Returns null when the buyer's address is unknown.
 */
async function attachLicence(
  tx: Executor,
  deps: SyncDeps,
  snapshot: SubscriptionSnapshot,
  now: Date,
  document: DocumentLink | null,
  /** The paying company, as its documents name it, for a holder's licence e-mail. */
  buyerCompany: string | null,
): Promise<Attached | typeof OVER_FREE_LIMIT | null> {
  const licences = createLicenceRepository(tx);
  const lifecycle = createLifecycleRepository(tx);
  const link = { subscriptionId: snapshot.subscriptionId, customerId: snapshot.customerId };
  const converted = (licence: Licence): Attached => ({
    licence,
    origin: 'converted',
    email: {
      kind: 'trial-converted',
      to: licence.email,
      ...trialConvertedEmail({
        licence: {
          email: licence.email,
          edition: snapshot.edition,
          quantity: snapshot.quantity,
          keyHint: licence.keyHint,
        },
        renewsAt: snapshot.currentPeriodEnd,
        publicBaseUrl: deps.publicBaseUrl,
        document,
      }),
    },
  });

  const candidates: Licence[] = [];
  if (snapshot.licenceIdToConvert) {
    const named = await licences.findById(snapshot.licenceIdToConvert);
    if (named) candidates.push(named);
  }
  // The licence is made for the holder when the order named one (decision 223).
  const holder = candidates.length === 0 ? licenceHolderOf(snapshot) : null;
  const licenceAddress = holder ?? snapshot.customerEmail;
  const sameAddress =
    licenceAddress && licenceTypeForEdition(snapshot.edition) === 'Paid'
      ? (await licences.findByNormalizedEmail(normalizeEmailAddress(licenceAddress))).filter(
          isConvertibleTrial,
        )
      : [];
  // Anyone can type any address at a checkout: only a mailbox that confirmed the order and paid
  // for it converts a trial it does not name (decisions 122, 161, 213). A holder's mailbox
  // confirmed nothing: its trial is never converted by address, only offered (decision 223).
  if (!holder && mayConvertByAddress(snapshot)) candidates.push(...sameAddress);
  for (const candidate of candidates) {
    // A revoked trial is not converted: the buyer gets a licence of their own.
    if (!isConvertibleTrial(candidate)) continue;
    if (await lifecycle.attachSubscription(candidate.id, link, now)) {
      const licence = await licences.findById(candidate.id);
      if (licence) return converted(licence);
    }
  }

  if (!snapshot.customerEmail || !licenceAddress) return null;
  if (licenceTypeForEdition(snapshot.edition) === 'Free') {
    // Before anything is written; one address at a time, so concurrent checkouts count exactly.
    const emailNormalized = normalizeEmailAddress(snapshot.customerEmail);
    const freeLicences = createFreeLicenceRepository(tx);
    await freeLicences.lockAddress(emailNormalized);
    if (!(await freeLicences.allowance(emailNormalized)).allowed) return OVER_FREE_LIMIT;
  }
  const issued = await issueLicence(tx, deps.secretKey, {
    type: licenceTypeForEdition(snapshot.edition),
    edition: snapshot.edition,
    quantity: snapshot.quantity,
    email: licenceAddress,
    productId: siteConfig.productId,
    expiresAt: snapshot.currentPeriodEnd,
    customerId: snapshot.customerId,
    subscriptionId: snapshot.subscriptionId,
    subscriptionStatus: snapshot.status,
    addressRule: 'any',
  });
  if (!issued.ok) return null;
  // Only the mailbox gets this offer: the link goes out with the new key, to the same address.
  const trialToKeep = sameAddress[0];
  const keepTrial = trialToKeep
    ? {
        keyHint: trialToKeep.keyHint,
        url: keepTrialUrl(
          deps.publicBaseUrl,
          createKeepTrialToken(
            deps.secretKey,
            {
              provider: snapshot.provider,
              subscriptionId: snapshot.subscriptionId,
              trialLicenceId: trialToKeep.id,
              issuedLicenceId: issued.licence.id,
            },
            now,
          ),
        ),
      }
    : null;
  const facts = {
    edition: snapshot.edition,
    quantity: snapshot.quantity,
    keyHint: issued.licence.keyHint,
  };
  const billingEmail = snapshot.customerEmail;
  return {
    licence: issued.licence,
    origin: 'issued',
    email: {
      kind: 'licence-key',
      to: issued.licence.email,
      ...licenceKeyEmail({
        key: issued.key,
        licence: { email: issued.licence.email, ...facts },
        renewsAt: snapshot.currentPeriodEnd,
        publicBaseUrl: deps.publicBaseUrl,
        accountBaseUrl: deps.accountBaseUrl,
        openInvoice: snapshot.openInvoice,
        // The holder files no invoices: the payment's document goes to the billing address.
        document: holder ? null : document,
        keepTrial,
        boughtBy: holder ? { email: billingEmail, companyName: buyerCompany } : null,
      }),
    },
    ...(holder
      ? {
          billingNote: {
            kind: 'licence-sent-to-holder',
            to: billingEmail,
            ...licenceSentToHolderEmail({
              holderEmail: issued.licence.email,
              licence: facts,
              openInvoice: snapshot.openInvoice,
              document,
              publicBaseUrl: deps.publicBaseUrl,
            }),
          },
        }
      : {}),
  };
}

/**
 * The one idempotent sync of a subscription into its licence (decision 061), used by webhooks,
 * the local provider, the success page and the lifecycle job. It re-reads the subscription from
 * the provider, then in one transaction (serialised per subscription): records the event id,
 * drops a read older than the last applied one, attaches or issues the licence, applies the
 * lifecycle rules and queues the e-mails the change causes. Any number of deliveries, in any
 * order, end in the state of the latest read.
 */
export async function syncSubscription(
  deps: SyncDeps,
  subscriptionId: string,
  event?: PaymentEvent,
): Promise<SyncResult> {
  const provider = deps.payments.name;
  const ledger = createSubscriptionRepository(deps.db);
  if (event && (await ledger.eventProcessed(provider, event.id))) {
    await ledger.countDuplicate(provider, event.id, deps.clock());
    return { outcome: 'duplicate', licenceId: null };
  }
  const readAt = deps.clock();
  let snapshot: SubscriptionSnapshot | null;
  try {
    snapshot = await deps.payments.retrieveSubscription(subscriptionId);
  } catch (error) {
    // An event about a subscription the provider does not know (another account's, or deleted).
    if (!isPaymentError(error, 'NotFound') || !event) throw error;
    snapshot = null;
  }

  const documentsSent: Array<{ number: string; to: string }> = [];
  const result = await deps.db.transaction(async (tx) => {
    const repository = createSubscriptionRepository(tx);
    const applied = await applyInTransaction(tx, repository);
    // The event log shows what each event did (decision 235).
    if (event && applied.outcome !== 'duplicate') {
      await repository.recordOutcome(provider, event.id, applied.outcome);
    }
    return applied;
  });
  async function applyInTransaction(
    tx: Executor,
    repository: ReturnType<typeof createSubscriptionRepository>,
  ) {
    await repository.lock(provider, subscriptionId);
    if (event && !(await repository.recordEvent(provider, event, readAt))) {
      await repository.countDuplicate(provider, event.id, readAt);
      return { outcome: 'duplicate' as const, licenceId: null, queued: 0, cancelNow: false };
    }
    if (!snapshot)
      return { outcome: 'ignored' as const, licenceId: null, queued: 0, cancelNow: false };
    const now = deps.clock();
    const mirror = await repository.find(provider, subscriptionId);
    if (mirror && mirror.snapshotReadAt > readAt) {
      return {
        outcome: 'stale' as const,
        licenceId: mirror.licenceId,
        queued: 0,
        cancelNow: false,
      };
    }
    const emails: QueuedEmail[] = [];
    // The invoice or receipt of each new payment, numbered in this transaction (decision 180).
    const documents = await issuePaymentDocuments(tx, {
      provider,
      subscriptionId,
      payments: snapshot.documentablePayments ?? [],
      now,
      publicBaseUrl: deps.publicBaseUrl,
      bankAccounts: deps.bankAccounts,
    });
    const newest = documents.at(-1);
    const documentLink: DocumentLink | null = newest
      ? {
          number: newest.number,
          kind: newest.document.kind,
          url: paymentDocumentUrl(deps.publicBaseUrl, deps.secretKey, newest.number),
        }
      : snapshot.providerDocumentUrl
        ? { number: null, kind: 'invoice', url: snapshot.providerDocumentUrl }
        : null;
    // A quote's card checkout, once paid, accepts the quote: it is ordered once (decision 214).
    if (snapshot.quoteNumber && snapshot.collection === 'card' && snapshot.paymentReceived) {
      const quotes = createQuoteRepository(tx);
      if (!(await quotes.acceptByCard(snapshot.quoteNumber, subscriptionId, now))) {
        deps.logger.warn(
          { subscriptionId, quote: snapshot.quoteNumber },
          'a quote paid by card had been accepted by another order first',
        );
      }
    }
    /** Each document numbered in this sync, as an e-mail of its own to its buyer. */
    const documentEmails = (): QueuedEmail[] =>
      documents
        .filter((issued) => issued.created)
        .map((issued) => {
          documentsSent.push({ number: issued.number, to: issued.document.buyer.email });
          return {
            kind: `payment-${issued.document.kind}`,
            to: issued.document.buyer.email,
            ...paymentDocumentEmail({
              document: issued.document,
              url: paymentDocumentUrl(deps.publicBaseUrl, deps.secretKey, issued.number),
              publicBaseUrl: deps.publicBaseUrl,
            }),
          };
        });
    /** Each invoice whose money this sync recorded: a confirmation to its buyer (decision 220). */
    const paymentConfirmations = (): QueuedEmail[] =>
      documents
        .filter((issued) => issued.paidNow)
        .map((issued) => ({
          kind: 'payment-received',
          to: issued.document.buyer.email,
          ...paymentReceivedEmail({
            document: issued.document,
            paidOn: calendarDateIn(now, siteConfig.company.timeZone),
            url: paymentDocumentUrl(deps.publicBaseUrl, deps.secretKey, issued.number),
            publicBaseUrl: deps.publicBaseUrl,
          }),
        }));
    let licence: Licence | undefined;
    let origin: 'issued' | 'converted' | undefined;
    let previous: SubscriptionTerms | null = mirror ? termsOfRow(mirror) : null;
    if (mirror?.licenceId) {
      licence = await createLicenceRepository(tx).findById(mirror.licenceId);
    } else if (!mirror?.licenceOrigin) {
      // Never attached yet (a licence once attached and since deleted stays gone).
      const standing = standingAt(termsOf(snapshot), now);
      if (standing === 'pending') {
        return { outcome: 'pending' as const, licenceId: null, queued: 0, cancelNow: false };
      }
      if (standing === 'good' || standing === 'retrying') {
        const attached = await attachLicence(
          tx,
          deps,
          snapshot,
          now,
          documentLink,
          documents.at(-1)?.document.buyer.companyName ?? snapshot.customerName ?? null,
        );
        if (attached === OVER_FREE_LIMIT) {
          // Free, so nothing to refund: the subscription ends at once, without a licence.
          deps.logger.warn({ subscriptionId }, 'free licence refused: recipient over its limit');
          await repository.save(snapshot, null, readAt);
          return { outcome: 'ignored' as const, licenceId: null, queued: 0, cancelNow: true };
        }
        if (attached) {
          licence = attached.licence;
          origin = attached.origin;
          emails.push(attached.email);
          // The licence e-mail (a holder's: the billing note) links the newest document.
          const documentTo = attached.billingNote ?? attached.email;
          if (attached.billingNote) emails.push(attached.billingNote);
          if (documentLink?.number) {
            documentsSent.push({ number: documentLink.number, to: documentTo.to });
          }
          previous = null;
        } else {
          deps.logger.error({ subscriptionId }, 'subscription without a buyer e-mail: no licence');
        }
      }
    }
    if (!licence) {
      // Ended before it was ever paid for, or its licence was deleted: keep only the mirror.
      // A payment it still records gets its document all the same (decision 180).
      const orphans = [...documentEmails(), ...paymentConfirmations()];
      const outbox = createOutboxRepository(tx);
      for (const email of orphans) await outbox.enqueue(email, now);
      await repository.save(snapshot, null, readAt);
      return {
        outcome: 'ignored' as const,
        licenceId: null,
        queued: orphans.length,
        cancelNow: false,
      };
    }

    const change = applySubscription(lifecycleOf(licence), previous, termsOf(snapshot), now);
    let saved = licence;
    if (licenceChanged(lifecycleOf(licence), change.licence)) {
      saved = await createLifecycleRepository(tx).saveLifecycle(licence.id, change.licence, now);
    }
    for (const lifecycleEvent of change.events) {
      const email = lifecycleEmail(
        lifecycleEvent,
        {
          email: saved.email,
          edition: saved.edition,
          quantity: saved.quantity,
          keyHint: saved.keyHint,
          paidUntil: saved.expiresAt,
        },
        deps.publicBaseUrl,
      );
      if (email) emails.push(email);
    }
    // No licence e-mail carries them: each new document goes out on its own (a renewal).
    if (!origin) emails.push(...documentEmails());
    emails.push(...paymentConfirmations());
    const outbox = createOutboxRepository(tx);
    for (const email of emails) await outbox.enqueue(email, now);
    // Where the licence is a holder's, the reminders' address is the paying one (decision 223).
    const payer = snapshot.customerEmail;
    const heldByOther =
      payer !== null && normalizeEmailAddress(payer) !== normalizeEmailAddress(saved.email);
    await repository.save(snapshot, { id: licence.id, origin }, readAt, {
      billingEmail: heldByOther ? payer : null,
    });
    return {
      outcome: 'applied' as const,
      licenceId: licence.id,
      queued: emails.length,
      cancelNow: change.cancelSubscriptionNow,
    };
  }

  if (result.queued > 0) deps.wakeOutbox();
  if (result.cancelNow) {
    await deps.payments.cancelSubscription(subscriptionId);
    await syncSubscription(deps, subscriptionId);
  }
  return { outcome: result.outcome, licenceId: result.licenceId, documentsSent };
}

/**
 * Handles one verified provider event: events about no subscription are only recorded. An event
 * whose handling throws is recorded as failed with its error (the event log, decision 235) and
 * the error rethrown, so the provider delivers it again.
 */
export async function handlePaymentEvent(deps: SyncDeps, event: PaymentEvent): Promise<SyncResult> {
  const ledger = createSubscriptionRepository(deps.db);
  try {
    if (event.subscriptionId) return await syncSubscription(deps, event.subscriptionId, event);
    const now = deps.clock();
    if (!(await ledger.recordEvent(deps.payments.name, event, now))) {
      await ledger.countDuplicate(deps.payments.name, event.id, now);
      return { outcome: 'duplicate', licenceId: null };
    }
    await ledger.recordOutcome(deps.payments.name, event.id, 'ignored');
    return { outcome: 'ignored', licenceId: null };
  } catch (error) {
    const message = maskAddressesIn(
      (error instanceof Error ? error.message : String(error)).slice(0, 500),
    );
    await ledger
      .recordFailure(deps.payments.name, event, message, deps.clock())
      .catch((recordError: unknown) =>
        deps.logger.error(
          { err: recordError, eventId: event.id },
          'could not record a failed event',
        ),
      );
    throw error;
  }
}

/** The sync's dependencies taken from the app's. */
export function syncDepsOf(deps: BillingPorts): SyncDeps {
  return {
    db: deps.database.db,
    payments: deps.payments,
    clock: deps.clock,
    secretKey: deps.secretKey,
    publicBaseUrl: deps.env.PUBLIC_BASE_URL,
    accountBaseUrl: deps.env.ACCOUNT_API_URL ?? deps.env.PUBLIC_BASE_URL,
    logger: deps.logger,
    wakeOutbox: deps.wakeOutbox,
    bankAccounts: deps.env.bankAccounts,
  };
}
