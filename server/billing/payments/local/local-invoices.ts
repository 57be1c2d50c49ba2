import type { Database, Executor } from '#server/platform/db/database.ts';
import { normalizeEmailAddress } from '#server/platform/email/normalize-email-address.ts';
import { vatOfPayment } from '#server/billing/documents/payment-document.ts';
import { takeDocumentNumber } from '#server/billing/documents/issue-payment-documents.ts';
import { countryNames, isCountryCode } from '#shared/countries.ts';
import { cityLine } from '#shared/subdivisions.ts';
import { vatAmounts } from '#shared/pricing/vat.ts';
import type {
  CreateInvoiceSubscriptionInput,
  InvoiceBuyer,
  InvoiceSubscriptionRef,
  PaymentEvent,
} from '#server/billing/subscriptions/payment-types.ts';
import { orderDescription } from './complete-local-checkout.ts';
import { periodAmount, periodEndAfter } from './local-billing.ts';
import { localEvents } from './local-events.ts';
import {
  createLocalPaymentRepository,
  localId,
  type LocalInvoice,
  type LocalSubscription,
} from './local-payment-repository.ts';

/**
 * The local provider's mirror of Stripe's `send_invoice` subscriptions (decision 145): the
 * subscription is active at once, its invoice is open with a due date and a page of its own,
 * and it is paid when an operator marks it so (`npm run admin -- invoices mark-paid`).
 */

const DAY_MS = 24 * 60 * 60 * 1000;

export function localInvoiceUrl(publicBaseUrl: string, invoiceId: string): string {
  return `${publicBaseUrl}/billing/local/invoice/${invoiceId}`;
}

/**
 * The buyer's address as printed, one line each (`Hauptstraße 1` / `10115 Berlin` / `Germany`;
 * a US city line `San Francisco, CA 94105`, decision 219), joined by line breaks.
 */
export function addressText(address: InvoiceBuyer['address']): string | null {
  const { line1, postalCode, city, state, country } = address;
  const place = cityLine({
    postalCode: postalCode ?? '',
    city: city ?? '',
    country: country ?? '',
    state,
  });
  const countryName = country && isCountryCode(country) ? countryNames[country] : country;
  const text = [line1, place, countryName].filter(Boolean).join('\n');
  return text || null;
}

/**
 * Sends the invoice of one billing period; the billing details come from `from`. It carries our
 * number (`INV-YYYY-NNNNN`), taken in this transaction, which its document keeps: one number on
 * the page, the PDF, the e-mails and the commands (decision 218). A period of nothing to pay (a
 * plan changed to free Starter) is paid at once, as Stripe closes a zero invoice, and takes no
 * number: no document is issued for it, and the series stays without gaps (invariant 7).
 */
async function sendInvoice(
  tx: Executor,
  subscription: LocalSubscription,
  from: Pick<
    LocalInvoice,
    | 'companyName'
    | 'billingEmail'
    | 'billingAddress'
    | 'country'
    | 'vatId'
    | 'vatIdConfirmation'
    | 'poReference'
    | 'quoteReference'
  >,
  period: { start: Date; end: Date },
  daysUntilDue: number,
  now: Date,
): Promise<LocalInvoice> {
  const amount = periodAmount(subscription);
  const owed = amount > 0;
  return createLocalPaymentRepository(tx).insertInvoice({
    subscriptionId: subscription.id,
    status: owed ? 'open' : 'paid',
    amount,
    currency: subscription.currency,
    description: orderDescription(subscription),
    periodStart: period.start,
    periodEnd: period.end,
    createdAt: now,
    paidAt: owed ? null : now,
    number: owed ? (await takeDocumentNumber(tx, now)).number : null,
    dueAt: new Date(now.getTime() + daysUntilDue * DAY_MS),
    ...from,
  });
}

export async function createLocalInvoiceSubscription(
  deps: { db: Database; clock: () => Date; publicBaseUrl: string },
  input: CreateInvoiceSubscriptionInput,
): Promise<{ ref: InvoiceSubscriptionRef; events: PaymentEvent[] }> {
  const now = deps.clock();
  return deps.db.transaction(async (tx) => {
    const repository = createLocalPaymentRepository(tx);
    const email = input.buyer.email.trim();
    const customer = await repository.findOrCreateCustomer({
      email,
      emailNormalized: normalizeEmailAddress(email),
      currency: input.currency,
    });
    const periodEnd = periodEndAfter(now, input.billingPeriod);
    const subscription = await repository.insertSubscription({
      id: localId('lsub'),
      customerId: customer.id,
      status: 'active',
      collectionMethod: 'send_invoice',
      edition: input.edition,
      quantity: input.quantity,
      billingPeriod: input.billingPeriod,
      currency: input.currency,
      currentPeriodStart: now,
      currentPeriodEnd: periodEnd,
      licenceIdToConvert: null,
      licenceHolderEmail: input.licenceHolderEmail ?? null,
      createdAt: now,
      updatedAt: now,
    });
    const invoice = await sendInvoice(
      tx,
      subscription,
      {
        companyName: input.buyer.companyName,
        billingEmail: email,
        billingAddress: addressText(input.buyer.address),
        country: input.buyer.address.country,
        vatId: input.buyer.vatId,
        vatIdConfirmation: input.buyer.vatIdConfirmation,
        poReference: input.poReference,
        quoteReference: input.quoteReference,
      },
      { start: now, end: periodEnd },
      input.daysUntilDue,
      now,
    );
    const taxed = vatAmounts(invoice.amount, vatOfPayment(invoice));
    return {
      ref: {
        subscriptionId: subscription.id,
        invoice: {
          invoiceId: invoice.id,
          number: invoice.number ?? invoice.id,
          dueAt: invoice.dueAt ?? now,
          hostedUrl: localInvoiceUrl(deps.publicBaseUrl, invoice.id),
          // With VAT, as Stripe's `amount_due` and the invoice to file (decision 180).
          amountDue: taxed.grossMinor,
          netAmount: taxed.netMinor,
          vatAmount: taxed.vatMinor,
        },
        // Test mode: the invoice is a page of this server, e-mailed to no one.
        emailedTo: null,
      },
      events: localEvents(subscription.id, 'customer.subscription.created'),
    };
  });
}

/** The renewal of a subscription paid by invoice: a new period and its invoice, sent net 30. */
export async function renewLocalInvoiceSubscription(
  tx: Executor,
  subscription: LocalSubscription,
  daysUntilDue: number,
  now: Date,
): Promise<PaymentEvent[]> {
  const repository = createLocalPaymentRepository(tx);
  const [previous] = await repository.invoicesOf(subscription.id);
  const start = subscription.currentPeriodEnd;
  const end = periodEndAfter(start, subscription.billingPeriod);
  const invoice = await sendInvoice(
    tx,
    subscription,
    {
      companyName: previous?.companyName ?? null,
      billingEmail: previous?.billingEmail ?? null,
      billingAddress: previous?.billingAddress ?? null,
      country: previous?.country ?? null,
      vatId: previous?.vatId ?? null,
      // The renewal keeps the confirmation the contract was made on (decision 210).
      vatIdConfirmation: previous?.vatIdConfirmation ?? null,
      poReference: previous?.poReference ?? null,
      quoteReference: null,
    },
    { start, end },
    daysUntilDue,
    now,
  );
  await repository.updateSubscription(
    subscription.id,
    { currentPeriodStart: start, currentPeriodEnd: end },
    now,
  );
  return invoice.status === 'paid'
    ? localEvents(subscription.id, 'invoice.paid', 'customer.subscription.updated')
    : localEvents(subscription.id, 'customer.subscription.updated');
}

export type MarkLocalInvoicePaidResult =
  | { ok: true; invoice: LocalInvoice; events: PaymentEvent[] }
  | { ok: false; code: 'InvoiceNotFound' | 'InvoiceNotOpen'; detail: string };

/** An operator records the payment of an open invoice (by id or number), as the bank shows it. */
export async function markLocalInvoicePaid(
  deps: { db: Database; clock: () => Date },
  idOrNumber: string,
): Promise<MarkLocalInvoicePaidResult> {
  const now = deps.clock();
  return deps.db.transaction(async (tx) => {
    const repository = createLocalPaymentRepository(tx);
    const invoice = await repository.findInvoice(idOrNumber);
    if (!invoice || invoice.dueAt === null) {
      return { ok: false, code: 'InvoiceNotFound', detail: `No invoice ${idOrNumber}` };
    }
    if (invoice.status !== 'open') {
      return {
        ok: false,
        code: 'InvoiceNotOpen',
        detail: `Invoice ${invoice.number ?? invoice.id} is ${invoice.status}`,
      };
    }
    await repository.updateInvoice(invoice.id, { status: 'paid', paidAt: now });
    const paid = { ...invoice, status: 'paid' as const, paidAt: now };
    return {
      ok: true,
      invoice: paid,
      events: localEvents(invoice.subscriptionId, 'invoice.paid', 'customer.subscription.updated'),
    };
  });
}
