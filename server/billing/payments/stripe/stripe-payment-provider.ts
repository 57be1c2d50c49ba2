import { formatIban, type BankAccount } from '#server/billing/bank-accounts.ts';
import { createHash } from 'node:crypto';
import Stripe from 'stripe';
import { z } from 'zod';
import {
  isBillingPeriod,
  isCurrency,
  isEdition,
  isEuCountry,
  type Currency,
} from '#shared/pricing/index.ts';
import { isSubscriptionStatus } from '#server/billing/subscriptions/payment-types.ts';
import { decideVat, type VatCase, type VatDecision } from '#shared/pricing/vat.ts';
import type {
  CheckoutBuyer,
  CheckoutSessionRef,
  CheckoutSessionStatus,
  CheckoutSessionView,
  CreateCheckoutSessionInput,
  CreateInvoiceSubscriptionInput,
  InvoiceSubscriptionRef,
  CreditInvoiceInput,
  OpenInvoice,
  PaymentEvent,
  ProviderCredit,
  ProviderInvoice,
  SubscriptionSnapshot,
} from '#server/billing/subscriptions/payment-types.ts';
import { PaymentError } from '#server/billing/subscriptions/payment-errors.ts';
import {
  checkoutQuantity,
  licenceQuantity,
  parsePriceLookupKey,
  priceLookupKey,
} from './stripe-price-catalog.ts';

/** Metadata keys on sessions and subscriptions (snake case, as Stripe's own fields). */
export const metadataKeys = {
  checkoutRequestId: 'checkout_request_id',
  licenceIdToConvert: 'licence_id_to_convert',
  edition: 'edition',
  quantity: 'quantity',
  billingPeriod: 'billing_period',
  currency: 'currency',
  poReference: 'po_reference',
  quoteReference: 'quote_reference',
  /** Who the licence is for, when not the customer's address (decision 223). */
  licenceHolderEmail: 'licence_holder_email',
  /** VIES's consultation number of the buyer's VAT ID (decision 210). */
  viesConsultation: 'vies_consultation_number',
} as const;

/** The label of the buyer's purchase-order reference on every invoice (a custom field). */
export const PO_FIELD_NAME = 'PO number';

/** The label of VIES's consultation number on an invoice with the reverse charge (decision 210). */
export const VIES_FIELD_NAME = 'VAT ID confirmed by VIES';

/** The label of the quote a card payment accepts, on its invoices (decision 219). */
export const QUOTE_FIELD_NAME = 'Quote';

/** Metadata key of the tax rates this product attaches to card checkouts (decision 219). */
export const VAT_CASE_METADATA_KEY = 'orgsmith_vat_case';

/** How each case of the VAT rule is named on a Stripe invoice's tax line. */
const taxRateNames: Record<VatCase, string> = {
  domestic: 'VAT',
  'eu-without-vat-id': 'VAT',
  'eu-vat-id-unconfirmed': 'VAT',
  'reverse-charge': 'VAT (reverse charge)',
  'outside-eu': 'No German VAT',
};
/**
 * The footer of an invoice order's Stripe invoices (decision 218): the seller's account and the
 * invoice's own number as the payment reference — Stripe numbers the invoice when it is
 * finalized, after the customer is made, so the footer names it rather than repeating it.
 */
export function bankTransferFooter(account: BankAccount): string {
  return [
    `Pay by bank transfer to ${account.holder}, IBAN ${formatIban(account.iban)}, BIC ${account.bic}, ${account.bank}.`,
    'Payment reference: the invoice number above.',
  ].join(' ');
}

/** An open invoice as the boundary names it; null unless it is finalized with a due date. */
function openInvoiceOf(invoice: Stripe.Invoice): OpenInvoice | null {
  if (invoice.status !== 'open' || !invoice.id || !invoice.due_date) return null;
  return {
    invoiceId: invoice.id,
    number: invoice.number ?? invoice.id,
    dueAt: new Date(invoice.due_date * 1000),
    amountDue: invoice.amount_remaining,
    hostedUrl: invoice.hosted_invoice_url ?? '',
  };
}

/** A card subscription in one of these states has been paid for at least once. */
function cardPaymentMade(status: Stripe.Subscription.Status): boolean {
  return (
    status === 'active' || status === 'past_due' || status === 'unpaid' || status === 'canceled'
  );
}

export interface StripePaymentProviderOptions {
  stripe: Stripe;
  /** `whsec_…`; without it no webhook can be verified (and every delivery is refused). */
  webhookSecret: string | undefined;
}

function hashed(value: string): string {
  return createHash('sha256').update(value).digest('hex').slice(0, 40);
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

/** Translates SDK errors into the boundary's codes; anything unexpected is "Unavailable". */
function translate(error: unknown, what: string): PaymentError {
  if (error instanceof PaymentError) return error;
  if (error instanceof Stripe.errors.StripeError && error.statusCode === 404) {
    return new PaymentError('NotFound', `${what}: not found at Stripe`, { cause: error });
  }
  const detail = error instanceof Error ? error.message : String(error);
  return new PaymentError('Unavailable', `${what}: ${detail}`, { cause: error });
}

async function call<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw translate(error, what);
  }
}

/** The Stripe side of the payment boundary. Only this folder imports `stripe`. */
/** The hosted page of a subscription's latest invoice, once it is final (a draft has none). */
function hostedDocumentOf(invoice: string | Stripe.Invoice | null): string | null {
  if (!invoice || typeof invoice === 'string') return null;
  return invoice.hosted_invoice_url ?? null;
}

/** The subscription an invoice belongs to, in either shape (decision 206). */
function subscriptionOfInvoice(invoice: Stripe.Invoice): string | null {
  const parsed = invoiceSchema.safeParse(invoice);
  if (!parsed.success) return null;
  return (
    idOf(parsed.data.parent?.subscription_details?.subscription) ?? idOf(parsed.data.subscription)
  );
}

/** Invoice ids and numbers as Stripe writes them: nothing that could bend a search query. */
const INVOICE_REFERENCE = /^[A-Za-z0-9_-]{1,64}$/;

/** The metadata key of the action a credit note answers (decision 220). */
const CREDIT_KEY = 'orgsmith_credit_key';

export function createStripePaymentProvider(options: StripePaymentProviderOptions) {
  const { stripe, webhookSecret } = options;

  /** An invoice as the boundary names it: what is owed, what may be refunded (decision 220). */
  async function providerInvoiceOf(invoice: Stripe.Invoice): Promise<ProviderInvoice> {
    const subscriptionId = subscriptionOfInvoice(invoice);
    const currency = invoice.currency.toUpperCase();
    if (!isCurrency(currency)) {
      throw new PaymentError('Unavailable', `Invoice ${invoice.id} is in ${invoice.currency}`);
    }
    let latest = false;
    if (subscriptionId) {
      const subscription = await stripe.subscriptions.retrieve(subscriptionId);
      latest = idOf(subscription.latest_invoice) === invoice.id;
    }
    const paid = invoice.status === 'paid' && invoice.amount_paid > 0;
    return {
      invoiceId: invoice.id ?? '',
      number: invoice.number ?? invoice.id ?? '',
      subscriptionId,
      status: paid ? 'paid' : invoice.status === 'open' ? 'open' : 'closed',
      currency,
      totalMinor: invoice.total,
      remainingMinor: invoice.status === 'open' ? invoice.amount_remaining : 0,
      refundableMinor: paid
        ? Math.max(0, invoice.amount_paid - invoice.post_payment_credit_notes_amount)
        : 0,
      latest,
    };
  }

  async function findPriceId(key: string): Promise<string> {
    const prices = await stripe.prices.list({ lookup_keys: [key], active: true, limit: 1 });
    const price = prices.data[0];
    if (!price) {
      throw new PaymentError(
        'NotConfigured',
        `No active Stripe price with lookup key ${key}: run npm run admin -- stripe sync`,
      );
    }
    return price.id;
  }

  /**
   * One customer per buyer (decisions 065, 091): a customer Stripe already has for the address
   * and that can bill this currency (Stripe's e-mail filter is exact, so the address is looked up
   * as given and in lower case), else one created once per address and currency (idempotency
   * key). A customer bills in one currency only, so one pinned to another is not reused.
   */
  async function findOrCreateCustomer(email: string, currency: Currency): Promise<string> {
    const given = email.trim();
    const address = given.toLowerCase();
    const wanted = currency.toLowerCase();
    for (const variant of new Set([given, address])) {
      const existing = await stripe.customers.list({ email: variant, limit: 10 });
      const reusable = existing.data.find(
        (customer) => !customer.currency || customer.currency === wanted,
      );
      if (reusable) return reusable.id;
    }
    const created = await stripe.customers.create(
      { email: address, metadata: { email_normalized: address } },
      { idempotencyKey: `customer-${hashed(address)}-${wanted}` },
    );
    return created.id;
  }

  /**
   * The tax rate of one case of the VAT rule (decision 219): exclusive, German, found by its
   * metadata among the account's active rates, else created once (idempotency key per case and
   * rate). Stripe prints its name and percentage on the invoice.
   */
  async function taxRateOf(vat: VatDecision): Promise<string> {
    const wanted = `${vat.case}:${vat.ratePercent}`;
    for await (const rate of stripe.taxRates.list({ active: true, limit: 100 })) {
      if (rate.metadata?.[VAT_CASE_METADATA_KEY] === wanted && !rate.inclusive) return rate.id;
    }
    const created = await stripe.taxRates.create(
      {
        display_name: taxRateNames[vat.case],
        percentage: vat.ratePercent,
        inclusive: false,
        country: 'DE',
        description: `Orgsmith: ${vat.case}`,
        metadata: { [VAT_CASE_METADATA_KEY]: wanted },
      },
      { idempotencyKey: `tax-rate-${wanted}` },
    );
    return created.id;
  }

  /**
   * A customer of its own for a card checkout of a named company (decision 219): its name,
   * address and, only when VIES confirmed it, the `eu_vat` ID (decision 210); another VAT or tax
   * ID, VIES's consultation number and the quote as invoice custom fields; the VAT rule's note
   * as the invoice footer. Checkout keeps it as it is (no `customer_update`): the address typed
   * there is the card's, and the VAT stays what our rule decided for this one.
   */
  async function createCheckoutCustomer(
    input: CreateCheckoutSessionInput,
    buyer: CheckoutBuyer,
    vat: VatDecision,
  ): Promise<string> {
    const { address } = buyer;
    const params: Stripe.CustomerCreateParams = {
      name: buyer.companyName,
      preferred_locales: ['en'],
      metadata: { [metadataKeys.checkoutRequestId]: input.checkoutRequestId },
      address: {
        line1: address.line1 ?? '',
        city: address.city ?? '',
        postal_code: address.postalCode ?? '',
        country: address.country ?? '',
        ...(address.state ? { state: address.state } : {}),
      },
    };
    if (input.customerEmail) {
      const email = input.customerEmail.trim().toLowerCase();
      params.email = email;
      params.metadata = { ...params.metadata, email_normalized: email };
    }
    const customFields: { name: string; value: string }[] = [];
    if (vat.case === 'reverse-charge' && vat.confirmation && buyer.vatId) {
      params.tax_id_data = [{ type: 'eu_vat', value: buyer.vatId }];
      customFields.push({ name: VIES_FIELD_NAME, value: vat.confirmation.consultationNumber });
    } else if (buyer.vatId) {
      customFields.push({
        name: address.country && isEuCountry(address.country) ? 'VAT ID' : 'Tax ID',
        value: buyer.vatId,
      });
    }
    if (input.quoteNumber) customFields.push({ name: QUOTE_FIELD_NAME, value: input.quoteNumber });
    params.invoice_settings = {
      ...(customFields.length > 0 ? { custom_fields: customFields } : {}),
      ...(vat.note ? { footer: vat.note } : {}),
    };
    const customer = await stripe.customers.create(params, {
      idempotencyKey: `checkout-customer-${input.checkoutRequestId}`,
    });
    return customer.id;
  }

  return {
    name: 'stripe' as const,

    findOrCreateCustomer: (email: string, currency: Currency) =>
      call('find or create customer', () => findOrCreateCustomer(email, currency)),

    async createCheckoutSession(input: CreateCheckoutSessionInput): Promise<CheckoutSessionRef> {
      return call('create checkout session', async () => {
        const priceId = await findPriceId(
          priceLookupKey(input.edition, input.billingPeriod, input.currency),
        );
        const buyer = input.buyer?.address.country ? input.buyer : null;
        // Our rule, not Stripe Tax's, decides the VAT of a named company (decision 219).
        const vat = buyer?.address.country
          ? decideVat({
              country: buyer.address.country,
              vatId: buyer.vatId ?? undefined,
              confirmation: buyer.vatIdConfirmation,
            })
          : null;
        let customer: string | undefined;
        if (buyer && vat) customer = await createCheckoutCustomer(input, buyer, vat);
        else if (input.customerEmail) {
          customer = await findOrCreateCustomer(input.customerEmail, input.currency);
        }
        const metadata: Record<string, string> = {
          [metadataKeys.checkoutRequestId]: input.checkoutRequestId,
          [metadataKeys.edition]: input.edition,
          [metadataKeys.quantity]: String(input.quantity),
          [metadataKeys.billingPeriod]: input.billingPeriod,
          [metadataKeys.currency]: input.currency,
        };
        if (input.licenceIdToConvert) {
          metadata[metadataKeys.licenceIdToConvert] = input.licenceIdToConvert;
        }
        if (input.quoteNumber) metadata[metadataKeys.quoteReference] = input.quoteNumber;
        if (input.licenceHolderEmail) {
          metadata[metadataKeys.licenceHolderEmail] = input.licenceHolderEmail;
        }
        if (vat?.confirmation) {
          metadata[metadataKeys.viesConsultation] = vat.confirmation.consultationNumber;
        }
        const lineItem: Stripe.Checkout.SessionCreateParams.LineItem = {
          price: priceId,
          quantity: checkoutQuantity(input.edition, input.quantity),
        };
        // The rate stays on the subscription item, so renewals are taxed the same way.
        if (vat) lineItem.tax_rates = [await taxRateOf(vat)];
        const params: Stripe.Checkout.SessionCreateParams = {
          mode: 'subscription',
          line_items: [lineItem],
          client_reference_id: input.checkoutRequestId,
          metadata,
          subscription_data: { metadata },
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          // Starter costs nothing: ask for a card only if Stripe needs one.
          payment_method_collection: input.edition === 'Starter' ? 'if_required' : 'always',
          // The card's billing address; the invoice's is the customer's, taken before Checkout.
          billing_address_collection: 'required',
        };
        if (customer) params.customer = customer;
        if (!vat) {
          // Nobody named (a free Starter without an address, an older client): Stripe Tax from
          // the address typed in Checkout, as before (decision 178).
          params.automatic_tax = { enabled: true };
          if (customer) params.customer_update = { address: 'auto', name: 'auto' };
        }
        const session = await stripe.checkout.sessions.create(params, {
          idempotencyKey: `checkout-${input.checkoutRequestId}`,
        });
        if (!session.url) throw new PaymentError('Unavailable', 'Stripe returned no session URL');
        return { sessionId: session.id, url: session.url };
      });
    },

    /**
     * A customer of its own per invoice order (its company name, address, VAT ID and the PO
     * number as an invoice custom field), a `send_invoice` subscription due net `daysUntilDue`,
     * and its first invoice finalized and sent now rather than an hour later (decision 144).
     */
    async createInvoiceSubscription(
      input: CreateInvoiceSubscriptionInput,
    ): Promise<InvoiceSubscriptionRef> {
      return call('create invoice subscription', async () => {
        const priceId = await findPriceId(
          priceLookupKey(input.edition, input.billingPeriod, input.currency),
        );
        const metadata: Record<string, string> = {
          [metadataKeys.checkoutRequestId]: input.requestId,
          [metadataKeys.edition]: input.edition,
          [metadataKeys.quantity]: String(input.quantity),
          [metadataKeys.billingPeriod]: input.billingPeriod,
          [metadataKeys.currency]: input.currency,
        };
        if (input.poReference) metadata[metadataKeys.poReference] = input.poReference;
        if (input.quoteReference) metadata[metadataKeys.quoteReference] = input.quoteReference;
        if (input.licenceHolderEmail) {
          metadata[metadataKeys.licenceHolderEmail] = input.licenceHolderEmail;
        }
        const { buyer } = input;
        const address = buyer.address;
        const customerParams: Stripe.CustomerCreateParams = {
          name: buyer.companyName,
          email: buyer.email.trim().toLowerCase(),
          metadata: { email_normalized: buyer.email.trim().toLowerCase() },
          preferred_locales: ['en'],
        };
        if (address.line1 || address.city || address.postalCode || address.country) {
          customerParams.address = {
            line1: address.line1 ?? '',
            city: address.city ?? '',
            postal_code: address.postalCode ?? '',
            country: address.country ?? '',
          };
        }
        // Only an EU VAT ID that VIES confirmed is Stripe's `eu_vat`, which Stripe Tax reads as
        // the reverse charge (decision 210); an unconfirmed one is printed as a custom field, so
        // Stripe Tax charges 19 %, as another state's tax ID is (decision 178).
        const customFields: { name: string; value: string }[] = [];
        const euVatId = address.country && isEuCountry(address.country);
        if (buyer.vatId && euVatId && buyer.vatIdConfirmation?.vatId === buyer.vatId) {
          customerParams.tax_id_data = [{ type: 'eu_vat', value: buyer.vatId }];
          const { consultationNumber } = buyer.vatIdConfirmation;
          metadata[metadataKeys.viesConsultation] = consultationNumber;
          customFields.push({ name: VIES_FIELD_NAME, value: consultationNumber });
        } else if (buyer.vatId) {
          customFields.push({ name: euVatId ? 'VAT ID' : 'Tax ID', value: buyer.vatId });
        }
        if (input.poReference) customFields.push({ name: PO_FIELD_NAME, value: input.poReference });
        // Stripe's invoice is the document and its number the one payment reference (decision
        // 218): the footer names the account to pay into and says so.
        customerParams.invoice_settings = {
          footer: bankTransferFooter(input.bankAccount),
          ...(customFields.length > 0 ? { custom_fields: customFields } : {}),
        };
        const customer = await stripe.customers.create(customerParams, {
          idempotencyKey: `invoice-customer-${input.requestId}`,
        });
        const subscription = await stripe.subscriptions.create(
          {
            customer: customer.id,
            items: [{ price: priceId, quantity: checkoutQuantity(input.edition, input.quantity) }],
            collection_method: 'send_invoice',
            days_until_due: input.daysUntilDue,
            automatic_tax: { enabled: true },
            metadata,
            description: input.poReference ? `${PO_FIELD_NAME} ${input.poReference}` : undefined,
          },
          { idempotencyKey: `invoice-subscription-${input.requestId}` },
        );
        const invoiceId = idOf(subscription.latest_invoice);
        if (!invoiceId) throw new PaymentError('Unavailable', 'Stripe created no first invoice');
        const first = await stripe.invoices.retrieve(invoiceId);
        if (first.status === 'draft') {
          await stripe.invoices.finalizeInvoice(
            invoiceId,
            {},
            {
              idempotencyKey: `invoice-finalize-${input.requestId}`,
            },
          );
        }
        const invoice = await stripe.invoices.sendInvoice(
          invoiceId,
          {},
          {
            idempotencyKey: `invoice-send-${input.requestId}`,
          },
        );
        const open = openInvoiceOf(invoice);
        if (!open) throw new PaymentError('Unavailable', `Invoice ${invoiceId} is not open`);
        return {
          subscriptionId: subscription.id,
          invoice: {
            ...open,
            amountDue: invoice.amount_due,
            // Net as Stripe Tax left it; the VAT is the rest of what is due.
            netAmount: invoice.total_excluding_tax ?? invoice.amount_due,
            vatAmount: invoice.amount_due - (invoice.total_excluding_tax ?? invoice.amount_due),
          },
          // Stripe e-mails invoices to customers in live mode only.
          emailedTo: invoice.livemode ? (invoice.customer_email ?? customer.email ?? null) : null,
        };
      });
    },

    async retrieveCheckoutSession(sessionId: string): Promise<CheckoutSessionView> {
      return call('retrieve checkout session', async () => {
        const session = await stripe.checkout.sessions.retrieve(sessionId);
        const status: CheckoutSessionStatus =
          session.status === 'complete'
            ? 'complete'
            : session.status === 'expired'
              ? 'expired'
              : 'open';
        return {
          sessionId: session.id,
          status,
          subscriptionId: idOf(session.subscription),
          customerEmail: session.customer_details?.email ?? session.customer_email ?? null,
        };
      });
    },

    async retrieveSubscription(subscriptionId: string): Promise<SubscriptionSnapshot> {
      return call('retrieve subscription', async () => {
        const subscription = await stripe.subscriptions.retrieve(subscriptionId, {
          expand: ['customer', 'latest_invoice'],
        });
        const item = subscription.items.data[0];
        if (!item) throw new PaymentError('NotConfigured', `${subscriptionId} has no items`);
        const order =
          parsePriceLookupKey(item.price.lookup_key) ??
          parsePriceLookupKey(
            priceKeyFromMetadata(item.price.metadata) ??
              priceKeyFromMetadata(subscription.metadata),
          );
        if (!order) {
          throw new PaymentError(
            'NotConfigured',
            `${subscriptionId} has a price (${item.price.id}) that is not in our catalogue`,
          );
        }
        if (!isSubscriptionStatus(subscription.status)) {
          throw new PaymentError(
            'Unavailable',
            `Unknown subscription status ${subscription.status}`,
          );
        }
        const customer = subscription.customer;
        const live =
          typeof customer === 'object' && !('deleted' in customer && customer.deleted)
            ? customer
            : null;
        const customerEmail = live?.email ?? null;
        const byInvoice = subscription.collection_method === 'send_invoice';
        let openInvoice: OpenInvoice | null = null;
        // A card subscription is created by Checkout only once its first payment went through.
        let paymentReceived = !byInvoice && cardPaymentMade(subscription.status);
        if (byInvoice) {
          // One read of the subscription's invoices answers both: which is open, whether one was paid.
          const invoices = await stripe.invoices.list({
            subscription: subscription.id,
            limit: 100,
          });
          const open = invoices.data
            .map(openInvoiceOf)
            .filter((invoice): invoice is OpenInvoice => invoice !== null)
            .sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime());
          openInvoice = open[0] ?? null;
          paymentReceived = invoices.data.some(
            (invoice) => invoice.status === 'paid' && invoice.amount_paid > 0,
          );
        }
        return {
          provider: 'stripe',
          subscriptionId: subscription.id,
          customerId: idOf(customer) ?? '',
          customerEmail,
          customerName: live?.name ?? null,
          status: subscription.status,
          edition: order.edition,
          quantity: licenceQuantity(order.edition, item.quantity ?? 1),
          billingPeriod: order.billingPeriod,
          currency: order.currency,
          currentPeriodEnd: new Date(item.current_period_end * 1000),
          cancelAtPeriodEnd: subscription.cancel_at_period_end,
          endedAt: subscription.ended_at ? new Date(subscription.ended_at * 1000) : null,
          endedForNonPayment: subscription.cancellation_details?.reason === 'payment_failed',
          licenceIdToConvert: subscription.metadata[metadataKeys.licenceIdToConvert] ?? null,
          quoteNumber: subscription.metadata[metadataKeys.quoteReference] ?? null,
          licenceHolderEmail: subscription.metadata[metadataKeys.licenceHolderEmail] ?? null,
          collection: byInvoice ? 'invoice' : 'card',
          openInvoice,
          paymentReceived,
          // Stripe's own invoice of the latest payment, linked from our e-mails (decision 180).
          providerDocumentUrl: hostedDocumentOf(subscription.latest_invoice),
        };
      });
    },

    /** Ends a subscription now (a Free licence's cancellation; a licence past reactivation). */
    async cancelSubscription(subscriptionId: string): Promise<void> {
      await call('cancel subscription', async () => {
        const subscription = await stripe.subscriptions.retrieve(subscriptionId);
        if (subscription.status === 'canceled' || subscription.status === 'incomplete_expired') {
          return;
        }
        await stripe.subscriptions.cancel(subscriptionId, undefined, {
          idempotencyKey: `cancel-${subscriptionId}`,
        });
      });
    },

    async retrieveInvoice(idOrNumber: string): Promise<ProviderInvoice> {
      if (!INVOICE_REFERENCE.test(idOrNumber)) {
        throw new PaymentError('NotFound', `No Stripe invoice ${idOrNumber}`);
      }
      return call('retrieve invoice', async () => {
        const invoice = idOrNumber.startsWith('in_')
          ? await stripe.invoices.retrieve(idOrNumber)
          : (await stripe.invoices.search({ query: `number:"${idOrNumber}"`, limit: 1 })).data[0];
        if (!invoice) throw new PaymentError('NotFound', `No Stripe invoice ${idOrNumber}`);
        return providerInvoiceOf(invoice);
      });
    },

    async listOpenInvoices(subscriptionId: string): Promise<ProviderInvoice[]> {
      return call('list open invoices', async () => {
        const invoices = await stripe.invoices.list({
          subscription: subscriptionId,
          status: 'open',
          limit: 100,
        });
        return Promise.all(invoices.data.map(providerInvoiceOf));
      });
    },

    /**
     * A Stripe credit note (decision 220): Stripe numbers, draws and e-mails it, and splits the
     * amount over the invoice's lines and tax as the invoice charged them. Off an open invoice it
     * lowers what is owed; of a paid one it is refunded to the payment (`refund_amount`).
     */
    async creditInvoice(input: CreditInvoiceInput): Promise<ProviderCredit> {
      return call('credit invoice', async () => {
        const earlier = await stripe.creditNotes.list({ invoice: input.invoiceId, limit: 100 });
        const replay = earlier.data.find(
          (note) => note.metadata?.[CREDIT_KEY] === input.idempotencyKey,
        );
        if (replay) {
          return { creditId: replay.id, number: replay.number, pdfUrl: replay.pdf, replayed: true };
        }
        try {
          const note = await stripe.creditNotes.create(
            {
              invoice: input.invoiceId,
              amount: input.amountMinor,
              ...(input.refund ? { refund_amount: input.amountMinor } : {}),
              reason: input.refund ? 'product_unsatisfactory' : 'order_change',
              memo: input.reason,
              metadata: { [CREDIT_KEY]: input.idempotencyKey },
            },
            { idempotencyKey: `credit-${hashed(input.idempotencyKey)}` },
          );
          return { creditId: note.id, number: note.number, pdfUrl: note.pdf, replayed: false };
        } catch (error) {
          // Stripe's own refusal (more than is left, an invoice it cannot credit): said as such.
          if (error instanceof Stripe.errors.StripeInvalidRequestError) {
            throw new PaymentError('CreditRefused', error.message, { cause: error });
          }
          throw error;
        }
      });
    },

    async createBillingPortalSession(input: {
      customerId: string;
      returnUrl: string;
    }): Promise<{ url: string }> {
      return call('create billing portal session', async () => {
        const session = await stripe.billingPortal.sessions.create({
          customer: input.customerId,
          return_url: input.returnUrl,
        });
        return { url: session.url };
      });
    },

    /** Verifies the signature on the raw body and names the subscription the event concerns. */
    parseWebhook(rawBody: string, signature: string | undefined): PaymentEvent {
      if (!webhookSecret) {
        throw new PaymentError('SignatureInvalid', 'STRIPE_WEBHOOK_SECRET is not configured');
      }
      if (!signature) throw new PaymentError('SignatureInvalid', 'Missing Stripe-Signature header');
      let event: unknown;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, webhookSecret);
      } catch (error) {
        throw new PaymentError('SignatureInvalid', 'Stripe signature verification failed', {
          cause: error,
        });
      }
      return paymentEventOf(event);
    },
  };
}

export type StripePaymentProvider = ReturnType<typeof createStripePaymentProvider>;

/** Prices created outside `stripe sync` may lack our lookup key but carry its parts as metadata. */
function priceKeyFromMetadata(metadata: Stripe.Metadata | null | undefined): string | null {
  const edition = metadata?.[metadataKeys.edition];
  const period = metadata?.[metadataKeys.billingPeriod];
  const currency = metadata?.[metadataKeys.currency];
  if (!isEdition(edition) || !isBillingPeriod(period) || !isCurrency(currency)) return null;
  return priceLookupKey(edition, period, currency);
}

/** A reference to another object: its id, or the object when expanded. */
const reference = z.union([z.string().min(1), z.object({ id: z.string().min(1) })]).nullish();

/** What every event must carry; a signed body without it is refused (400), never a 500. */
const eventSchema = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});

/** The members of each event's object that name its subscription. */
const checkoutSessionSchema = z.object({ mode: z.string().nullish(), subscription: reference });
const subscriptionSchema = z.object({ id: z.string().min(1) });
/**
 * Invoices name their subscription under `parent.subscription_details` since API version
 * 2025-03-31.basil, and at the top level before it: an endpoint pinned to an older version
 * still sends the older shape (decision 206).
 */
const invoiceSchema = z.object({
  parent: z
    .object({ subscription_details: z.object({ subscription: reference }).nullish() })
    .nullish(),
  subscription: reference,
});

/**
 * The event's id, type and the subscription it concerns, read from the verified body. Throws
 * `EventInvalid` when a member this service reads is missing or of another shape.
 */
function paymentEventOf(body: unknown): PaymentEvent {
  const event = eventSchema.safeParse(body);
  if (!event.success) {
    throw new PaymentError('EventInvalid', 'The event has no id, type or data.object');
  }
  const { id, type, data } = event.data;
  const read = <T>(schema: z.ZodType<T>): T => {
    const object = schema.safeParse(data.object);
    if (!object.success) {
      throw new PaymentError('EventInvalid', `The ${type} event's object is not one`);
    }
    return object.data;
  };
  switch (type) {
    case 'checkout.session.completed': {
      const session = read(checkoutSessionSchema);
      const subscriptionId = session.mode === 'subscription' ? idOf(session.subscription) : null;
      return { id, type, subscriptionId };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return { id, type, subscriptionId: read(subscriptionSchema).id };
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const invoice = read(invoiceSchema);
      const subscriptionId =
        idOf(invoice.parent?.subscription_details?.subscription) ?? idOf(invoice.subscription);
      return { id, type, subscriptionId };
    }
    default:
      return { id, type, subscriptionId: null };
  }
}
