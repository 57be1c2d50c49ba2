import {
  defaultSizeForEdition,
  isBillingPeriod,
  isEdition,
  quantityIsValidForEdition,
  type BillingPeriod,
  type Edition,
} from '#shared/pricing/index.ts';
import type { Database, Executor } from '#server/platform/db/database.ts';
import type { PaymentEvent } from '#server/billing/subscriptions/payment-types.ts';
import { cardPays } from './advance-local-subscriptions.ts';
import type { AcceptedCard } from './local-cards.ts';
import { periodEndAfter, previewProration, type ProrationPreview } from './local-billing.ts';
import { orderDescription } from './complete-local-checkout.ts';
import { localEvents } from './local-events.ts';
import {
  createLocalPaymentRepository,
  type LocalInvoice,
  type LocalPortalSession,
  type LocalSubscription,
} from './local-payment-repository.ts';

/**
 * What the local billing portal can do to a subscription (decisions 062 and 090): change plan,
 * quantity or billing period (prorated, invoiced at once), update the card (retrying an unpaid
 * invoice), cancel at period end (a Free licence at once) and undo a pending cancellation. The
 * currency stays as bought.
 */

export type PortalActionError =
  | 'SessionExpired'
  | 'SubscriptionNotFound'
  | 'SubscriptionNotChangeable'
  | 'PlanInvalid'
  | 'QuantityInvalid'
  | 'PeriodInvalid'
  | 'CurrencyUnchangeable'
  | 'NoChange'
  | 'CardRequired'
  | 'CardDeclined';

export type PortalActionResult =
  { ok: true; events: PaymentEvent[]; outcome: string } | { ok: false; code: PortalActionError };

interface ManageDeps {
  db: Database;
  clock: () => Date;
}

/** Finds a live portal session and one of its customer's subscriptions, locked for change. */
async function subscriptionInPortal(
  tx: Executor,
  portalSessionId: string,
  subscriptionId: string,
  now: Date,
): Promise<
  | { ok: true; session: LocalPortalSession; subscription: LocalSubscription }
  | { ok: false; code: PortalActionError }
> {
  const repository = createLocalPaymentRepository(tx);
  const session = await repository.findPortalSession(portalSessionId);
  if (!session || session.expiresAt <= now) return { ok: false, code: 'SessionExpired' };
  const subscription = await repository.lockSubscription(subscriptionId);
  if (!subscription || subscription.customerId !== session.customerId) {
    return { ok: false, code: 'SubscriptionNotFound' };
  }
  return { ok: true, session, subscription };
}

const changeable = (subscription: LocalSubscription) =>
  subscription.endedAt === null && ['active', 'trialing'].includes(subscription.status);

/** A plan change as the portal offers it: edition, size and billing period (not currency). */
export interface PlanChange {
  edition: Edition;
  quantity: number;
  billingPeriod: BillingPeriod;
}

/** A plan change as it arrives from the portal's preview link or confirm form: untrusted text. */
export interface PlanChangeRequest {
  edition?: string | undefined;
  quantity?: string | undefined;
  billingPeriod?: string | undefined;
  currency?: string | undefined;
}

/**
 * Reads a requested change against the subscription, in order of precedence: a known plan
 * (else PlanInvalid) → a known billing period, the current one when none is sent (else
 * PeriodInvalid) → the subscription's own currency, when one is sent at all (else
 * CurrencyUnchangeable) → a size that fits the plan (else QuantityInvalid; Starter and
 * Enterprise have their fixed size) → an actual change (else NoChange).
 */
export function readPlanChange(
  request: PlanChangeRequest,
  subscription: LocalSubscription,
): { ok: true; change: PlanChange } | { ok: false; code: PortalActionError } {
  const { edition } = request;
  if (!isEdition(edition)) return { ok: false, code: 'PlanInvalid' };
  const billingPeriod = request.billingPeriod ?? subscription.billingPeriod;
  if (!isBillingPeriod(billingPeriod)) return { ok: false, code: 'PeriodInvalid' };
  if (request.currency !== undefined && request.currency !== subscription.currency) {
    return { ok: false, code: 'CurrencyUnchangeable' };
  }
  const raw = (request.quantity ?? '').trim();
  const quantity =
    edition === 'Pro'
      ? /^\d{1,3}$/.test(raw)
        ? Number(raw)
        : Number.NaN
      : defaultSizeForEdition(edition);
  if (!quantityIsValidForEdition(edition, quantity)) return { ok: false, code: 'QuantityInvalid' };
  if (
    edition === subscription.edition &&
    quantity === subscription.quantity &&
    billingPeriod === subscription.billingPeriod
  ) {
    return { ok: false, code: 'NoChange' };
  }
  return { ok: true, change: { edition, quantity, billingPeriod } };
}

/**
 * Who a plan change's invoice is made out to: the buyer of the subscription's latest invoice that
 * names a country (an order by invoice), else nobody in particular (a card buyer, taxed as a
 * German one, decision 180). The preview and the receipt both take their VAT from it.
 */
export function buyerOfChange(
  invoices: readonly LocalInvoice[],
): Pick<
  LocalInvoice,
  'companyName' | 'billingAddress' | 'country' | 'vatId' | 'vatIdConfirmation'
> {
  const named = invoices
    .filter((invoice) => invoice.country)
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
  return {
    companyName: named?.companyName ?? null,
    billingAddress: named?.billingAddress ?? null,
    country: named?.country ?? null,
    vatId: named?.vatId ?? null,
    vatIdConfirmation: named?.vatIdConfirmation ?? null,
  };
}

/** The proration a change would cause now, for the preview and the invoice. */
export function prorationFor(
  subscription: LocalSubscription,
  next: PlanChange,
  now: Date,
): ProrationPreview {
  return previewProration({
    current: subscription,
    next: { ...next, currency: subscription.currency },
    periodStart: subscription.currentPeriodStart,
    periodEnd: subscription.currentPeriodEnd,
    now,
  });
}

/**
 * The frame of every portal action on one subscription: one transaction, the subscription locked
 * and checked to belong to the portal session's customer, then `act` with the repository bound
 * to that transaction.
 */
function inPortalTransaction(
  deps: ManageDeps,
  input: { portalSessionId: string; subscriptionId: string },
  act: (found: {
    subscription: LocalSubscription;
    payments: ReturnType<typeof createLocalPaymentRepository>;
    now: Date;
  }) => Promise<PortalActionResult>,
): Promise<PortalActionResult> {
  const now = deps.clock();
  return deps.db.transaction(async (tx): Promise<PortalActionResult> => {
    const found = await subscriptionInPortal(tx, input.portalSessionId, input.subscriptionId, now);
    if (!found.ok) return found;
    return act({
      subscription: found.subscription,
      payments: createLocalPaymentRepository(tx),
      now,
    });
  });
}

/**
 * Changes plan, size or billing period at once, as Stripe does with "always invoice": the
 * proration is invoiced and paid now (a credit is shown as a negative invoice); a switch between
 * monthly and yearly starts a new period today. Raises the events Stripe would send.
 */
export async function changeLocalPlan(
  deps: ManageDeps,
  input: { portalSessionId: string; subscriptionId: string; request: PlanChangeRequest },
): Promise<PortalActionResult> {
  return inPortalTransaction(deps, input, async ({ subscription, payments, now }) => {
    if (!changeable(subscription)) return { ok: false, code: 'SubscriptionNotChangeable' };
    const read = readPlanChange(input.request, subscription);
    if (!read.ok) return read;
    const change = read.change;
    const customer = await payments.findCustomer(subscription.customerId);
    const proration = prorationFor(subscription, change, now);
    // A paid plan needs a card on file even when nothing is due today.
    if (change.edition !== 'Starter' && !customer?.cardOutcome) {
      return { ok: false, code: 'CardRequired' };
    }
    if (!cardPays(customer, proration.total)) return { ok: false, code: 'CardDeclined' };
    const invoiced = proration.total !== 0 || proration.startsNewPeriod;
    if (invoiced) {
      await payments.insertInvoice({
        subscriptionId: subscription.id,
        ...buyerOfChange(await payments.invoicesOf(subscription.id)),
        status: 'paid',
        amount: proration.total,
        currency: subscription.currency,
        description: `${proration.total >= 0 ? 'Prorated change to' : 'Credit on change to'} ${orderDescription(change)}`,
        periodStart: now,
        periodEnd: proration.periodEnd,
        createdAt: now,
        paidAt: now,
      });
    }
    await payments.updateSubscription(
      subscription.id,
      {
        edition: change.edition,
        quantity: change.quantity,
        billingPeriod: change.billingPeriod,
        ...(proration.startsNewPeriod
          ? { currentPeriodStart: now, currentPeriodEnd: proration.periodEnd }
          : {}),
      },
      now,
    );
    // Stripe: the subscription update, then the proration invoice (paid at once, or credited).
    const events = localEvents(subscription.id, 'customer.subscription.updated');
    if (invoiced) events.push(...localEvents(subscription.id, 'invoice.paid'));
    return { ok: true, events, outcome: 'plan-changed' };
  });
}

export async function cancelLocalSubscription(
  deps: ManageDeps,
  input: { portalSessionId: string; subscriptionId: string },
): Promise<PortalActionResult> {
  return inPortalTransaction(deps, input, async ({ subscription, payments, now }) => {
    if (subscription.endedAt !== null || subscription.cancelAtPeriodEnd) {
      return { ok: false, code: 'SubscriptionNotChangeable' };
    }
    // docs/product-rules.md#behaviour: a Free licence is cancelled immediately, a paid one at the end of its period.
    if (subscription.edition === 'Starter') {
      await payments.updateSubscription(
        subscription.id,
        { status: 'canceled', canceledAt: now, endedAt: now },
        now,
      );
      return {
        ok: true,
        events: localEvents(subscription.id, 'customer.subscription.deleted'),
        outcome: 'cancelled',
      };
    }
    await payments.updateSubscription(
      subscription.id,
      { cancelAtPeriodEnd: true, canceledAt: now },
      now,
    );
    return {
      ok: true,
      events: localEvents(subscription.id, 'customer.subscription.updated'),
      outcome: 'cancellation-scheduled',
    };
  });
}

export async function resumeLocalSubscription(
  deps: ManageDeps,
  input: { portalSessionId: string; subscriptionId: string },
): Promise<PortalActionResult> {
  return inPortalTransaction(deps, input, async ({ subscription, payments, now }) => {
    if (subscription.endedAt !== null || !subscription.cancelAtPeriodEnd) {
      return { ok: false, code: 'SubscriptionNotChangeable' };
    }
    await payments.updateSubscription(
      subscription.id,
      { cancelAtPeriodEnd: false, canceledAt: null },
      now,
    );
    return {
      ok: true,
      events: localEvents(subscription.id, 'customer.subscription.updated'),
      outcome: 'resumed',
    };
  });
}

/**
 * Saves a new card for the portal's customer, then tries every open invoice with it: a past-due
 * subscription becomes active again; an unpaid one restarts with a fresh period from today.
 */
export async function updateLocalCard(
  deps: ManageDeps,
  input: { portalSessionId: string; card: AcceptedCard },
): Promise<PortalActionResult> {
  const now = deps.clock();
  return deps.db.transaction(async (tx): Promise<PortalActionResult> => {
    const repository = createLocalPaymentRepository(tx);
    const session = await repository.findPortalSession(input.portalSessionId);
    if (!session || session.expiresAt <= now) return { ok: false, code: 'SessionExpired' };
    await repository.saveCard(session.customerId, input.card);
    const events: PaymentEvent[] = [];
    let outcome = 'card-updated';
    for (const listed of await repository.subscriptionsOfCustomer(session.customerId)) {
      if (listed.status !== 'past_due' && listed.status !== 'unpaid') continue;
      const subscription = await repository.lockSubscription(listed.id);
      const invoice = subscription ? await repository.openInvoice(subscription.id) : undefined;
      if (!subscription || !invoice) continue;
      if (input.card.outcome === 'declines') {
        outcome = 'card-declined';
        continue;
      }
      const restart = subscription.status === 'unpaid';
      const periodStart = restart ? now : subscription.currentPeriodStart;
      const periodEnd = restart
        ? periodEndAfter(now, subscription.billingPeriod)
        : subscription.currentPeriodEnd;
      await repository.updateInvoice(invoice.id, {
        status: 'paid',
        paidAt: now,
        periodStart,
        periodEnd,
      });
      await repository.updateSubscription(
        subscription.id,
        {
          status: 'active',
          failedPaymentAttempts: 0,
          nextPaymentAttemptAt: null,
          currentPeriodStart: periodStart,
          currentPeriodEnd: periodEnd,
        },
        now,
      );
      events.push(...localEvents(subscription.id, 'invoice.paid', 'customer.subscription.updated'));
      outcome = 'invoice-paid';
    }
    return { ok: true, events, outcome };
  });
}
