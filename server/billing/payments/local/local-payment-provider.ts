import type { Database } from '#server/platform/db/database.ts';
import { PaymentError } from '#server/billing/subscriptions/payment-errors.ts';
import type { PaymentProvider } from '#server/billing/subscriptions/payment-provider.ts';
import { isSubscriptionStatus } from '#server/billing/subscriptions/payment-types.ts';
import type { DocumentablePayment } from '#server/billing/documents/payment-document.ts';
import {
  localId,
  createLocalPaymentRepository,
  type LocalInvoice,
} from './local-payment-repository.ts';
import { addressText, createLocalInvoiceSubscription, localInvoiceUrl } from './local-invoices.ts';
import {
  creditLocalInvoice,
  listOpenLocalInvoices,
  retrieveLocalInvoice,
} from './local-credits.ts';

/** How long a hosted-checkout page stays payable (Stripe's default is 24 hours). */
export const LOCAL_CHECKOUT_SESSION_TTL_MS = 24 * 60 * 60 * 1000;
/** How long a billing-portal link stays usable once created. */
export const LOCAL_PORTAL_SESSION_TTL_MS = 60 * 60 * 1000;

/** How many of a subscription's latest invoices a read offers for documents (decision 180). */
const RECENT_INVOICES = 5;

/**
 * The local invoices the product documents itself: card charges paid (a receipt each) and
 * invoices sent for payment (the invoice, with its due date); void ones none.
 */
export function documentablePaymentsOf(
  invoices: readonly LocalInvoice[],
  customerEmail: string | null,
  order?: DocumentablePayment['order'],
): DocumentablePayment[] {
  return invoices.flatMap((invoice): DocumentablePayment[] => {
    const sent = invoice.dueAt !== null;
    if (invoice.status === 'void' || (!sent && invoice.status !== 'paid')) return [];
    const email = invoice.billingEmail ?? customerEmail;
    if (!email) return [];
    return [
      {
        invoiceId: invoice.id,
        // An invoice sent for payment carries our number already (decision 218).
        number: sent ? invoice.number : null,
        ...(order ? { order } : {}),
        kind: sent ? 'invoice' : 'receipt',
        issuedAt: invoice.createdAt,
        paidAt: invoice.paidAt,
        dueAt: invoice.dueAt,
        currency: invoice.currency,
        netMinor: invoice.amount,
        description: invoice.description,
        periodStart: invoice.periodStart,
        periodEnd: invoice.periodEnd,
        buyer: {
          email,
          companyName: invoice.companyName,
          address: invoice.billingAddress,
          country: invoice.country,
          vatId: invoice.vatId,
          vatIdConfirmation: invoice.vatIdConfirmation,
        },
        poReference: invoice.poReference,
        quoteReference: invoice.quoteReference,
      },
    ];
  });
}

export interface LocalPaymentProviderOptions {
  db: Database;
  clock: () => Date;
  publicBaseUrl: string;
}

/**
 * The built-in stand-in for the payment provider, served by our own server so the whole flow
 * works on a fresh machine (decision 062): hosted checkout at `/billing/local/checkout/<id>`,
 * billing portal at `/billing/local/portal/<id>`, and the events Stripe would send raised
 * in-process by those pages and the renewal job.
 */
export function createLocalPaymentProvider(options: LocalPaymentProviderOptions): PaymentProvider {
  const { db, clock, publicBaseUrl } = options;
  const repository = createLocalPaymentRepository(db);

  return {
    name: 'local',

    async createCheckoutSession(input) {
      const now = clock();
      const session = await repository.insertCheckoutSession({
        id: localId('lcs'),
        checkoutRequestId: input.checkoutRequestId,
        edition: input.edition,
        quantity: input.quantity,
        billingPeriod: input.billingPeriod,
        currency: input.currency,
        customerEmail: input.customerEmail,
        licenceIdToConvert: input.licenceIdToConvert,
        quoteNumber: input.quoteNumber ?? null,
        companyName: input.buyer?.companyName ?? null,
        billingAddress: input.buyer ? addressText(input.buyer.address) : null,
        country: input.buyer?.address.country ?? null,
        vatId: input.buyer?.vatId ?? null,
        vatIdConfirmation: input.buyer?.vatIdConfirmation ?? null,
        licenceHolderEmail: input.licenceHolderEmail ?? null,
        successUrl: input.successUrl,
        cancelUrl: input.cancelUrl,
        expiresAt: new Date(now.getTime() + LOCAL_CHECKOUT_SESSION_TTL_MS),
        createdAt: now,
      });
      return {
        sessionId: session.id,
        url: `${publicBaseUrl}/billing/local/checkout/${session.id}`,
      };
    },

    async createInvoiceSubscription(input) {
      // Its only event (subscription created) needs no dispatch: the caller syncs at once.
      const created = await createLocalInvoiceSubscription({ db, clock, publicBaseUrl }, input);
      return created.ref;
    },

    async retrieveCheckoutSession(sessionId) {
      const session = await repository.findCheckoutSession(sessionId);
      if (!session) throw new PaymentError('NotFound', `No local checkout session ${sessionId}`);
      const customer = session.customerId
        ? await repository.findCustomer(session.customerId)
        : undefined;
      const expired = session.status === 'open' && session.expiresAt <= clock();
      return {
        sessionId: session.id,
        status: expired ? 'expired' : session.status,
        subscriptionId: session.subscriptionId,
        customerEmail: customer?.email ?? session.customerEmail,
      };
    },

    async retrieveSubscription(subscriptionId) {
      const subscription = await repository.findSubscription(subscriptionId);
      if (!subscription) {
        throw new PaymentError('NotFound', `No local subscription ${subscriptionId}`);
      }
      const customer = await repository.findCustomer(subscription.customerId);
      const invoice =
        subscription.collectionMethod === 'send_invoice'
          ? await repository.oldestOpenSentInvoice(subscription.id)
          : undefined;
      const status = subscription.status;
      if (!isSubscriptionStatus(status)) {
        throw new PaymentError('Unavailable', `Unknown local subscription status ${status}`);
      }
      return {
        provider: 'local',
        subscriptionId: subscription.id,
        customerId: subscription.customerId,
        customerEmail: customer?.email ?? null,
        status,
        edition: subscription.edition,
        quantity: subscription.quantity,
        billingPeriod: subscription.billingPeriod,
        currency: subscription.currency,
        currentPeriodEnd: subscription.currentPeriodEnd,
        cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
        endedAt: subscription.endedAt,
        endedForNonPayment: subscription.endedForNonPayment,
        licenceIdToConvert: subscription.licenceIdToConvert,
        quoteNumber: subscription.quoteNumber,
        licenceHolderEmail: subscription.licenceHolderEmail,
        collection: subscription.collectionMethod === 'send_invoice' ? 'invoice' : 'card',
        openInvoice:
          invoice?.dueAt && invoice.number
            ? {
                invoiceId: invoice.id,
                number: invoice.number,
                dueAt: invoice.dueAt,
                amountDue: invoice.amount,
                hostedUrl: localInvoiceUrl(publicBaseUrl, invoice.id),
              }
            : null,
        paymentReceived: await repository.hasPaidInvoice(subscription.id),
        documentablePayments: documentablePaymentsOf(
          (await repository.invoicesOf(subscription.id)).slice(0, RECENT_INVOICES),
          customer?.email ?? null,
          {
            edition: subscription.edition,
            quantity: subscription.quantity,
            billingPeriod: subscription.billingPeriod,
          },
        ),
      };
    },

    async cancelSubscription(subscriptionId) {
      const now = clock();
      await db.transaction(async (tx) => {
        const local = createLocalPaymentRepository(tx);
        const subscription = await local.lockSubscription(subscriptionId);
        if (!subscription) {
          throw new PaymentError('NotFound', `No local subscription ${subscriptionId}`);
        }
        if (subscription.endedAt !== null) return;
        await local.updateSubscription(
          subscriptionId,
          { status: 'canceled', canceledAt: now, endedAt: now, nextPaymentAttemptAt: null },
          now,
        );
      });
    },

    retrieveInvoice: (idOrNumber) => retrieveLocalInvoice(db, idOrNumber),

    listOpenInvoices: (subscriptionId) => listOpenLocalInvoices(db, subscriptionId),

    creditInvoice: (input) => creditLocalInvoice({ db, clock }, input),

    async createBillingPortalSession({ customerId, returnUrl }) {
      const now = clock();
      if (!(await repository.findCustomer(customerId))) {
        throw new PaymentError('NotFound', `No local customer ${customerId}`);
      }
      const id = localId('lps');
      await repository.insertPortalSession({
        id,
        customerId,
        returnUrl,
        expiresAt: new Date(now.getTime() + LOCAL_PORTAL_SESSION_TTL_MS),
        createdAt: now,
      });
      return { url: `${publicBaseUrl}/billing/local/portal/${id}` };
    },

    parseWebhook() {
      // Local events are raised in-process; nothing outside may post them.
      throw new PaymentError('SignatureInvalid', 'The local payment provider receives no webhooks');
    },
  };
}
