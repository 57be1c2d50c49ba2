import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/**
 * A local HTTP stand-in for the few Stripe API endpoints we call, so the real `stripe` SDK runs
 * against it (`STRIPE_API_BASE_URL=http://127.0.0.1:<port>`). It keeps state in memory, honours
 * idempotency keys, and records every request so tests can assert their shape. Test controls
 * (`completeCheckoutSession`, `updateSubscription`) play the buyer and Stripe's billing engine.
 */

export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

export interface RecordedRequest {
  method: string;
  path: string;
  query: FormObject;
  body: FormObject;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
}

type JsonObject = Record<string, unknown>;

interface FakeSession extends JsonObject {
  id: string;
  status: string;
  customer: string | null;
  subscription: string | null;
  customer_details: { email: string } | null;
  line_items: Array<{ price: string; quantity: number; tax_rates: string[] }>;
  subscription_data: FormObject;
}

interface FakeSubscription extends JsonObject {
  id: string;
  status: string;
  customer: string;
  metadata: Record<string, string>;
  cancel_at_period_end: boolean;
  ended_at: number | null;
  canceled_at: number | null;
  cancellation_details: { reason: string | null } | null;
  items: { object: 'list'; data: JsonObject[] };
  collection_method: 'charge_automatically' | 'send_invoice';
  latest_invoice: string | null;
}

/** An invoice of a `send_invoice` subscription: draft → open (finalized, numbered) → paid. */
interface FakeInvoice extends JsonObject {
  id: string;
  status: 'draft' | 'open' | 'paid' | 'void';
  subscription: string;
  customer: string;
  number: string | null;
  amount_due: number;
  /** What the buyer paid: 0 until the invoice is paid, then its amount due (as Stripe's). */
  amount_paid: number;
  /** Still owed: the amount due less payments and credit notes before payment. */
  amount_remaining: number;
  total: number;
  /** Credit notes issued while it was open (they lower what is owed) and after it was paid. */
  pre_payment_credit_notes_amount: number;
  post_payment_credit_notes_amount: number;
  /** Net, and the tax of the tax rates on its line (Checkout's `line_items[].tax_rates`). */
  subtotal?: number;
  tax?: number;
  currency: string;
  due_date: number | null;
  hosted_invoice_url: string | null;
  custom_fields: Array<{ name: string; value: string }> | null;
  /** The customer's `invoice_settings.footer`, copied on as Stripe does. */
  footer: string | null;
  days_until_due: number;
}

/** Parses `a[b][0][c]=x` form encoding (the SDK's) into nested objects and arrays. */
export function parseForm(text: string): FormObject {
  const root: FormObject = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const parts = rawKey.replace(/\]/g, '').split('[');
    let node: FormObject = root;
    parts.forEach((part, index) => {
      const last = index === parts.length - 1;
      if (last) {
        node[part] = value;
        return;
      }
      const child = node[part];
      if (typeof child === 'object' && !Array.isArray(child)) node = child;
      else {
        const created: FormObject = {};
        node[part] = created;
        node = created;
      }
    });
  }
  return obj(arraysFromIndexes(root));
}

function arraysFromIndexes(value: FormValue): FormValue {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const mapped = Object.fromEntries(keys.map((key) => [key, arraysFromIndexes(value[key] ?? '')]));
  if (keys.length > 0 && keys.every((key, index) => key === String(index))) {
    return keys.map((key) => mapped[key] ?? '');
  }
  return mapped;
}

function str(value: FormValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function obj(value: FormValue | undefined): FormObject {
  return typeof value === 'object' && !Array.isArray(value) ? value : {};
}

function list(value: FormValue | undefined): FormValue[] {
  return Array.isArray(value) ? value : [];
}

function metadataOf(value: FormValue | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, entry] of Object.entries(obj(value))) {
    if (typeof entry === 'string') result[key] = entry;
  }
  return result;
}

/** Stripe leaves out fields unless expanded, and never echoes what only the fake keeps. */
function without(value: JsonObject, keys: string[]): JsonObject {
  return Object.fromEntries(Object.entries(value).filter(([key]) => !keys.includes(key)));
}

class StripeFakeError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

const missing = (what: string, id: string) =>
  new StripeFakeError(404, 'resource_missing', `No such ${what}: '${id}'`);

export interface StripeFake {
  url: string;
  requests: RecordedRequest[];
  /** Requests to one endpoint, e.g. `requestsTo('POST', '/v1/checkout/sessions')`. */
  requestsTo(method: string, path: string): RecordedRequest[];
  customers: Map<string, JsonObject>;
  products: Map<string, JsonObject>;
  prices: Map<string, JsonObject>;
  sessions: Map<string, FakeSession>;
  subscriptions: Map<string, FakeSubscription>;
  invoices: Map<string, FakeInvoice>;
  creditNotes: Map<string, JsonObject>;
  refunds: Map<string, JsonObject>;
  taxRates: Map<string, JsonObject>;
  /** The buyer's bank transfer arrives: the invoice is paid. */
  payInvoice(id: string): FakeInvoice;
  /** The buyer pays on Stripe's page: creates the customer (if none) and the subscription. */
  completeCheckoutSession(sessionId: string, buyer: { email: string }): FakeSubscription;
  updateSubscription(id: string, patch: Partial<FakeSubscription>): FakeSubscription;
  /** Seconds since the epoch as the fake's "now" (subscription periods start here). */
  setNow(epochSeconds: number): void;
  close(): Promise<void>;
}

export async function startStripeFake(port = 0): Promise<StripeFake> {
  let now = Math.floor(Date.now() / 1000);
  const requests: RecordedRequest[] = [];
  const customers = new Map<string, JsonObject>();
  const products = new Map<string, JsonObject>();
  const prices = new Map<string, JsonObject>();
  const sessions = new Map<string, FakeSession>();
  const subscriptions = new Map<string, FakeSubscription>();
  const invoices = new Map<string, FakeInvoice>();
  const creditNotes = new Map<string, JsonObject>();
  const refunds = new Map<string, JsonObject>();
  const taxRates = new Map<string, JsonObject>();
  let invoiceCounter = 0;
  /** A customer's `invoice_settings.custom_fields`, copied onto each of its invoices. */
  const customerInvoiceFields = new Map<string, Array<{ name: string; value: string }>>();
  /** A customer's `invoice_settings.footer`, copied onto each of its invoices. */
  const customerFooters = new Map<string, string>();
  const idempotent = new Map<string, { body: string; status: number; response: string }>();
  const newId = (prefix: string) => `${prefix}_${randomBytes(10).toString('hex')}`;

  const intervalSeconds = (price: JsonObject) => {
    const recurring = price.recurring;
    const interval =
      typeof recurring === 'object' && recurring !== null && 'interval' in recurring
        ? recurring.interval
        : 'month';
    return interval === 'year' ? 365 * 86400 : 30 * 86400;
  };

  function priceView(price: JsonObject, expandTiers: boolean): JsonObject {
    return expandTiers ? price : without(price, ['tiers']);
  }

  function subscriptionView(subscription: FakeSubscription, expand: FormValue[]): JsonObject {
    const latest = subscription.latest_invoice;
    return {
      ...subscription,
      ...(expand.includes('customer')
        ? { customer: customers.get(subscription.customer) ?? null }
        : {}),
      ...(expand.includes('latest_invoice') && latest
        ? { latest_invoice: invoices.get(latest) ?? null }
        : {}),
    };
  }

  function createSubscription(session: FakeSession, customerId: string): FakeSubscription {
    const items = session.line_items.map((line) => {
      const price = prices.get(line.price);
      if (!price) throw missing('price', line.price);
      return {
        object: 'subscription_item',
        id: newId('si'),
        price,
        quantity: line.quantity,
        current_period_start: now,
        current_period_end: now + intervalSeconds(price),
      };
    });
    const subscriptionData = session.subscription_data;
    const subscription: FakeSubscription = {
      object: 'subscription',
      id: newId('sub'),
      status: 'active',
      customer: customerId,
      metadata: metadataOf(subscriptionData.metadata),
      cancel_at_period_end: false,
      canceled_at: null,
      ended_at: null,
      cancellation_details: null,
      created: now,
      items: { object: 'list', data: items },
      collection_method: 'charge_automatically',
      latest_invoice: null,
    };
    // Checkout charges the first period at once: a paid invoice with its hosted page, as Stripe's.
    const first = items[0];
    // The fake does not price tiers (a stand-in per unit), but applies the line's tax rates.
    const subtotal = (first?.quantity ?? 1) * 100_00;
    const percent = (session.line_items[0]?.tax_rates ?? []).reduce(
      (sum, id) => sum + Number(taxRates.get(id)?.percentage ?? 0),
      0,
    );
    const tax = Math.round((subtotal * percent) / 100);
    const invoice: FakeInvoice = {
      object: 'invoice',
      id: newId('in'),
      status: 'paid',
      subscription: subscription.id,
      customer: customerId,
      number: `FAKE-${String(invoices.size + 1).padStart(4, '0')}`,
      subtotal,
      tax,
      amount_due: subtotal + tax,
      amount_paid: subtotal + tax,
      amount_remaining: 0,
      total: subtotal + tax,
      pre_payment_credit_notes_amount: 0,
      post_payment_credit_notes_amount: 0,
      currency: String(first?.price.currency ?? 'usd'),
      due_date: null,
      hosted_invoice_url: null,
      custom_fields: null,
      footer: null,
      days_until_due: 0,
      created: now,
    };
    invoice.hosted_invoice_url = `https://invoice.stripe.test/i/${invoice.id}`;
    invoices.set(invoice.id, invoice);
    subscription.latest_invoice = invoice.id;
    subscriptions.set(subscription.id, subscription);
    return subscription;
  }

  /** A subscription paid by invoice: active at once, its first invoice a draft until finalized. */
  function createInvoiceSubscription(body: FormObject): FakeSubscription {
    const customerId = str(body.customer) ?? '';
    const customer = customers.get(customerId);
    if (!customer) throw missing('customer', customerId);
    const lines = list(body.items).map((entry) => {
      const line = obj(entry);
      const priceId = str(line.price) ?? '';
      const price = prices.get(priceId);
      if (!price?.active) throw missing('price', priceId);
      return { price, quantity: Number(str(line.quantity) ?? '1') };
    });
    const subscription: FakeSubscription = {
      object: 'subscription',
      id: newId('sub'),
      status: 'active',
      customer: customerId,
      metadata: metadataOf(body.metadata),
      description: str(body.description) ?? null,
      cancel_at_period_end: false,
      canceled_at: null,
      ended_at: null,
      cancellation_details: null,
      created: now,
      days_until_due: Number(str(body.days_until_due) ?? '0'),
      items: {
        object: 'list',
        data: lines.map((line) => ({
          object: 'subscription_item',
          id: newId('si'),
          price: line.price,
          quantity: line.quantity,
          current_period_start: now,
          current_period_end: now + intervalSeconds(line.price),
        })),
      },
      collection_method:
        str(body.collection_method) === 'send_invoice' ? 'send_invoice' : 'charge_automatically',
      latest_invoice: null,
    };
    const first = lines[0];
    const invoice: FakeInvoice = {
      object: 'invoice',
      id: newId('in'),
      status: 'draft',
      subscription: subscription.id,
      customer: customerId,
      number: null,
      // The fake does not price tiers: a stand-in amount per unit.
      amount_due: (first?.quantity ?? 1) * 100_00,
      amount_paid: 0,
      amount_remaining: (first?.quantity ?? 1) * 100_00,
      total: (first?.quantity ?? 1) * 100_00,
      pre_payment_credit_notes_amount: 0,
      post_payment_credit_notes_amount: 0,
      currency: String(first?.price.currency ?? 'usd'),
      due_date: null,
      hosted_invoice_url: null,
      custom_fields: customerInvoiceFields.get(customerId) ?? null,
      footer: customerFooters.get(customerId) ?? null,
      days_until_due: Number(str(body.days_until_due) ?? '0'),
      created: now,
    };
    invoices.set(invoice.id, invoice);
    subscription.latest_invoice = invoice.id;
    subscriptions.set(subscription.id, subscription);
    return subscription;
  }

  /**
   * Stripe's credit note (decision 220): of an open invoice it lowers what is owed (the invoice is
   * paid once nothing is); of a paid one its refund, credit and out-of-band amounts must add up to
   * it, and never more than was paid and not credited yet. Only `amount` is taken, not lines.
   */
  function createCreditNote(body: FormObject): JsonObject {
    const invoiceId = str(body.invoice) ?? '';
    const invoice = invoices.get(invoiceId);
    if (!invoice) throw missing('invoice', invoiceId);
    const amount = Number(str(body.amount) ?? 'NaN');
    if (!Number.isInteger(amount) || amount <= 0) {
      throw new StripeFakeError(400, 'parameter_invalid_integer', 'amount must be positive');
    }
    const refundAmount = Number(str(body.refund_amount) ?? '0');
    const creditAmount = Number(str(body.credit_amount) ?? '0');
    const outOfBand = Number(str(body.out_of_band_amount) ?? '0');
    let pre = 0;
    let post = 0;
    if (invoice.status === 'open') {
      if (amount > invoice.amount_remaining) {
        throw new StripeFakeError(
          400,
          'credit_note_amount_too_large',
          `The credit note amount (${amount}) exceeds the invoice's remaining amount (${invoice.amount_remaining})`,
        );
      }
      pre = amount;
    } else if (invoice.status === 'paid') {
      const creditable =
        invoice.total -
        invoice.pre_payment_credit_notes_amount -
        invoice.post_payment_credit_notes_amount;
      if (amount > creditable) {
        throw new StripeFakeError(
          400,
          'credit_note_amount_too_large',
          `The credit note amount (${amount}) exceeds the amount that may be credited (${creditable})`,
        );
      }
      if (refundAmount + creditAmount + outOfBand !== amount) {
        throw new StripeFakeError(
          400,
          'parameter_invalid_integer',
          'The sum of refund_amount, credit_amount and out_of_band_amount must equal the credit note amount',
        );
      }
      post = amount;
    } else {
      throw new StripeFakeError(
        400,
        'invoice_not_creditable',
        `Only open or paid invoices can be credited; this one is ${invoice.status}`,
      );
    }
    const noteRefunds: JsonObject[] = [];
    if (refundAmount > 0) {
      const refund = {
        object: 'refund',
        id: newId('re'),
        amount: refundAmount,
        currency: invoice.currency,
        status: 'succeeded',
        created: now,
      };
      refunds.set(refund.id, refund);
      noteRefunds.push({ refund: refund.id, amount_refunded: refundAmount });
    }
    invoice.pre_payment_credit_notes_amount += pre;
    invoice.post_payment_credit_notes_amount += post;
    if (pre > 0) {
      invoice.amount_remaining -= pre;
      // Nothing left to pay: Stripe marks the invoice paid (with nothing paid).
      if (invoice.amount_remaining === 0) invoice.status = 'paid';
    }
    const count = [...creditNotes.values()].filter((note) => note.invoice === invoiceId).length;
    const note = {
      object: 'credit_note',
      id: newId('cn'),
      number: `${invoice.number ?? 'DRAFT'}-CN-${String(count + 1).padStart(2, '0')}`,
      invoice: invoiceId,
      customer: invoice.customer,
      amount,
      total: amount,
      currency: invoice.currency,
      type: pre > 0 ? 'pre_payment' : 'post_payment',
      pre_payment_amount: pre,
      post_payment_amount: post,
      refunds: noteRefunds,
      credit_amount: creditAmount,
      out_of_band_amount: outOfBand || null,
      memo: str(body.memo) ?? null,
      reason: str(body.reason) ?? null,
      metadata: metadataOf(body.metadata),
      status: 'issued',
      pdf: `https://pay.stripe.test/credit_notes/${invoiceId}/${count + 1}/pdf`,
      created: now,
    };
    creditNotes.set(note.id, note);
    return note;
  }

  function route(method: string, path: string, query: FormObject, body: FormObject): JsonObject {
    const segments = path.split('/').filter(Boolean);
    const [version, resource, id, sub] = segments;
    if (version !== 'v1') throw new StripeFakeError(404, 'resource_missing', 'Unknown API path');

    if (resource === 'customers') {
      if (method === 'GET' && !id) {
        const email = str(query.email);
        const data = [...customers.values()].filter((c) => !email || c.email === email);
        const limit = Number(str(query.limit) ?? 10);
        return {
          object: 'list',
          data: data.slice(0, limit),
          has_more: false,
          url: '/v1/customers',
        };
      }
      if (method === 'POST' && !id) {
        const customer = {
          object: 'customer',
          id: newId('cus'),
          email: str(body.email) ?? null,
          name: str(body.name) ?? null,
          address: body.address === undefined ? null : obj(body.address),
          // Set by the first subscription: a customer bills in that currency only.
          currency: null,
          metadata: metadataOf(body.metadata),
          invoice_settings: obj(body.invoice_settings),
          tax_ids: list(body.tax_id_data).map((entry) => ({
            type: str(obj(entry).type) ?? '',
            value: str(obj(entry).value) ?? '',
          })),
        };
        customers.set(customer.id, customer);
        const footer = str(obj(body.invoice_settings).footer);
        if (footer !== undefined) customerFooters.set(customer.id, footer);
        customerInvoiceFields.set(
          customer.id,
          list(obj(body.invoice_settings).custom_fields).map((entry) => ({
            name: str(obj(entry).name) ?? '',
            value: str(obj(entry).value) ?? '',
          })),
        );
        return customer;
      }
      if (method === 'GET' && id) {
        const customer = customers.get(id);
        if (!customer) throw missing('customer', id);
        return customer;
      }
    }

    if (resource === 'products') {
      if (method === 'POST' && !id) {
        const productId = str(body.id) ?? newId('prod');
        if (products.has(productId)) {
          throw new StripeFakeError(400, 'resource_already_exists', 'Product already exists');
        }
        const product = {
          object: 'product',
          id: productId,
          name: str(body.name) ?? '',
          description: str(body.description) ?? null,
          active: str(body.active) !== 'false',
          metadata: metadataOf(body.metadata),
        };
        products.set(productId, product);
        return product;
      }
      if (id) {
        const product = products.get(id);
        if (!product) throw missing('product', id);
        if (method === 'GET') return product;
        if (method === 'POST') {
          if (body.name !== undefined) product.name = str(body.name);
          if (body.description !== undefined) product.description = str(body.description);
          if (body.active !== undefined) product.active = str(body.active) === 'true';
          if (body.metadata !== undefined) product.metadata = metadataOf(body.metadata);
          return product;
        }
      }
    }

    if (resource === 'prices') {
      if (method === 'GET' && !id) {
        const keys = list(query.lookup_keys).filter((k): k is string => typeof k === 'string');
        const active = str(query.active);
        const expandTiers = list(query.expand).includes('data.tiers');
        const data = [...prices.values()].filter(
          (price) =>
            (keys.length === 0 || keys.includes(String(price.lookup_key))) &&
            (active === undefined || String(price.active) === active),
        );
        return {
          object: 'list',
          data: data.map((price) => priceView(price, expandTiers)),
          has_more: false,
          url: '/v1/prices',
        };
      }
      if (method === 'POST' && !id) {
        const lookupKey = str(body.lookup_key) ?? null;
        if (lookupKey) {
          for (const other of prices.values()) {
            if (other.lookup_key !== lookupKey) continue;
            if (str(body.transfer_lookup_key) !== 'true') {
              throw new StripeFakeError(400, 'lookup_key_exists', 'Lookup key already in use');
            }
            other.lookup_key = null;
          }
        }
        const productId = str(body.product) ?? '';
        if (!products.has(productId)) throw missing('product', productId);
        const recurring = obj(body.recurring);
        const price = {
          object: 'price',
          id: newId('price'),
          active: true,
          currency: str(body.currency) ?? '',
          product: productId,
          lookup_key: lookupKey,
          billing_scheme: str(body.billing_scheme) ?? 'per_unit',
          tiers_mode: str(body.tiers_mode) ?? null,
          unit_amount: body.unit_amount === undefined ? null : Number(str(body.unit_amount)),
          recurring: { interval: str(recurring.interval) ?? 'month', usage_type: 'licensed' },
          tiers: list(body.tiers).map((entry) => {
            const tier = obj(entry);
            const upTo = str(tier.up_to);
            return {
              up_to: upTo === undefined || upTo === 'inf' ? null : Number(upTo),
              flat_amount: tier.flat_amount === undefined ? null : Number(str(tier.flat_amount)),
              unit_amount: tier.unit_amount === undefined ? null : Number(str(tier.unit_amount)),
            };
          }),
          metadata: metadataOf(body.metadata),
        };
        prices.set(price.id, price);
        return price;
      }
      if (id) {
        const price = prices.get(id);
        if (!price) throw missing('price', id);
        if (method === 'GET') return price;
        if (method === 'POST') {
          if (body.active !== undefined) price.active = str(body.active) === 'true';
          if (body.metadata !== undefined) price.metadata = metadataOf(body.metadata);
          return price;
        }
      }
    }

    if (resource === 'checkout' && id === 'sessions') {
      const sessionId = sub;
      if (method === 'POST' && !sessionId) {
        const lineItems = list(body.line_items).map((entry) => {
          const line = obj(entry);
          const priceId = str(line.price) ?? '';
          if (!prices.get(priceId)?.active) throw missing('price', priceId);
          const rates = list(line.tax_rates).filter((id): id is string => typeof id === 'string');
          for (const rate of rates) if (!taxRates.has(rate)) throw missing('tax_rate', rate);
          return { price: priceId, quantity: Number(str(line.quantity) ?? '1'), tax_rates: rates };
        });
        if (
          str(obj(body.automatic_tax).enabled) === 'true' &&
          lineItems.some((l) => l.tax_rates.length)
        ) {
          // Stripe's answer: a session computes tax one way or the other.
          throw new StripeFakeError(
            400,
            'parameter_invalid',
            'You cannot use tax rates together with automatic tax',
          );
        }
        const customerId = str(body.customer);
        if (customerId) {
          const customer = customers.get(customerId);
          if (!customer) throw missing('customer', customerId);
          const currency = prices.get(lineItems[0]?.price ?? '')?.currency;
          if (customer.currency && customer.currency !== currency) {
            // Stripe's answer when a customer pinned to one currency is sold in another.
            throw new StripeFakeError(
              400,
              'currency_mismatch',
              `You cannot combine currencies on a single customer. This customer has had a subscription with currency ${String(customer.currency)}`,
            );
          }
        }
        const session: FakeSession = {
          object: 'checkout.session',
          id: newId('cs_test'),
          mode: str(body.mode) ?? null,
          status: 'open',
          url: '',
          customer: str(body.customer) ?? null,
          customer_email: str(body.customer_email) ?? null,
          customer_details: null,
          client_reference_id: str(body.client_reference_id) ?? null,
          metadata: metadataOf(body.metadata),
          subscription: null,
          success_url: str(body.success_url) ?? null,
          cancel_url: str(body.cancel_url) ?? null,
          payment_method_collection: str(body.payment_method_collection) ?? null,
          billing_address_collection: str(body.billing_address_collection) ?? null,
          automatic_tax: { enabled: str(obj(body.automatic_tax).enabled) === 'true' },
          line_items: lineItems,
          subscription_data: obj(body.subscription_data),
        };
        session.url = `https://checkout.stripe.test/c/pay/${session.id}`;
        sessions.set(session.id, session);
        return session;
      }
      if (method === 'GET' && sessionId) {
        const session = sessions.get(sessionId);
        if (!session) throw missing('checkout.session', sessionId);
        return without(session, ['line_items', 'subscription_data']);
      }
    }

    if (resource === 'tax_rates') {
      if (method === 'GET' && !id) {
        const active = str(query.active);
        const data = [...taxRates.values()].filter(
          (rate) => active === undefined || String(rate.active) === active,
        );
        return { object: 'list', data, has_more: false, url: '/v1/tax_rates' };
      }
      if (method === 'POST' && !id) {
        const rate = {
          object: 'tax_rate',
          id: newId('txr'),
          active: true,
          display_name: str(body.display_name) ?? '',
          description: str(body.description) ?? null,
          percentage: Number(str(body.percentage) ?? 'NaN'),
          inclusive: str(body.inclusive) === 'true',
          country: str(body.country) ?? null,
          metadata: metadataOf(body.metadata),
        };
        if (!Number.isFinite(rate.percentage) || body.inclusive === undefined) {
          throw new StripeFakeError(
            400,
            'parameter_missing',
            'percentage and inclusive are required',
          );
        }
        taxRates.set(rate.id, rate);
        return rate;
      }
    }

    if (resource === 'subscriptions' && !id && method === 'POST') {
      return createInvoiceSubscription(body);
    }

    if (resource === 'invoices' && id === 'search' && method === 'GET') {
      // Only what we search by: `number:"…"`.
      const wanted = /^number:"([^"]*)"$/.exec(str(query.query) ?? '')?.[1];
      if (wanted === undefined) {
        throw new StripeFakeError(400, 'parameter_invalid', 'Unsupported search query');
      }
      const data = [...invoices.values()].filter((invoice) => invoice.number === wanted);
      return { object: 'search_result', data, has_more: false, next_page: null, url: path };
    }

    if (resource === 'credit_notes') {
      if (method === 'GET' && !id) {
        const invoice = str(query.invoice);
        const data = [...creditNotes.values()].filter(
          (note) => !invoice || note.invoice === invoice,
        );
        return { object: 'list', data, has_more: false, url: '/v1/credit_notes' };
      }
      if (method === 'POST' && !id) return createCreditNote(body);
      if (method === 'GET' && id) {
        const note = creditNotes.get(id);
        if (!note) throw missing('credit_note', id);
        return note;
      }
    }

    if (resource === 'invoices') {
      if (method === 'GET' && !id) {
        const subscription = str(query.subscription);
        const status = str(query.status);
        const data = [...invoices.values()].filter(
          (invoice) =>
            (!subscription || invoice.subscription === subscription) &&
            (!status || invoice.status === status),
        );
        return { object: 'list', data, has_more: false, url: '/v1/invoices' };
      }
      const invoice = id ? invoices.get(id) : undefined;
      if (id && !invoice) throw missing('invoice', id);
      if (invoice && method === 'GET' && !sub) return invoice;
      if (invoice && method === 'POST' && sub === 'finalize') {
        if (invoice.status !== 'draft') {
          throw new StripeFakeError(
            400,
            'invoice_not_editable',
            'This invoice is already finalized',
          );
        }
        invoiceCounter++;
        invoice.status = 'open';
        invoice.number = `FAKE-${String(invoiceCounter).padStart(4, '0')}`;
        invoice.due_date = now + invoice.days_until_due * 86400;
        invoice.hosted_invoice_url = `https://invoice.stripe.test/i/${invoice.id}`;
        return invoice;
      }
      if (invoice && method === 'POST' && sub === 'send') {
        if (invoice.status !== 'open') {
          throw new StripeFakeError(400, 'invoice_not_open', 'Only open invoices can be sent');
        }
        return invoice;
      }
    }

    if (resource === 'subscriptions' && id) {
      const subscription = subscriptions.get(id);
      if (!subscription) throw missing('subscription', id);
      if (method === 'GET') return subscriptionView(subscription, list(query.expand));
      if (method === 'POST') {
        if (body.cancel_at_period_end !== undefined) {
          subscription.cancel_at_period_end = str(body.cancel_at_period_end) === 'true';
        }
        if (body.metadata !== undefined) subscription.metadata = metadataOf(body.metadata);
        return subscription;
      }
      if (method === 'DELETE') {
        subscription.status = 'canceled';
        subscription.canceled_at = now;
        subscription.ended_at = now;
        subscription.cancellation_details = { reason: 'cancellation_requested' };
        return subscription;
      }
    }

    if (resource === 'billing_portal' && id === 'sessions' && method === 'POST' && !sub) {
      const customer = str(body.customer) ?? '';
      if (!customers.has(customer)) throw missing('customer', customer);
      const sessionId = newId('bps');
      return {
        object: 'billing_portal.session',
        id: sessionId,
        customer,
        return_url: str(body.return_url) ?? null,
        url: `https://billing.stripe.test/p/session/${sessionId}`,
      };
    }

    throw new StripeFakeError(
      404,
      'resource_missing',
      `Unrecognized request URL (${method}: ${path})`,
    );
  }

  async function readBody(request: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(Buffer.from(chunk));
    return Buffer.concat(chunks).toString('utf8');
  }

  function send(response: ServerResponse, status: number, text: string) {
    response.writeHead(status, {
      'content-type': 'application/json',
      'request-id': `req_${randomBytes(6).toString('hex')}`,
    });
    response.end(text);
  }

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://stripe.fake');
    const method = request.method ?? 'GET';
    const rawBody = await readBody(request);
    const header = (name: string) => {
      const value = request.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const recorded: RecordedRequest = {
      method,
      path: url.pathname,
      query: parseForm(url.search.slice(1)),
      body: parseForm(rawBody),
      idempotencyKey: header('idempotency-key'),
      authorization: header('authorization'),
    };
    requests.push(recorded);
    if (!recorded.authorization?.startsWith('Bearer sk_')) {
      send(
        response,
        401,
        JSON.stringify({ error: { type: 'invalid_request_error', message: 'No API key' } }),
      );
      return;
    }
    const replayKey = recorded.idempotencyKey
      ? `${method} ${url.pathname} ${recorded.idempotencyKey}`
      : null;
    const replay = replayKey ? idempotent.get(replayKey) : undefined;
    if (replay) {
      if (replay.body !== rawBody) {
        send(
          response,
          400,
          JSON.stringify({
            error: {
              type: 'idempotency_error',
              message: 'Keys for idempotent requests can only be used with the same parameters',
            },
          }),
        );
        return;
      }
      send(response, replay.status, replay.response);
      return;
    }
    let status = 200;
    let text: string;
    try {
      text = JSON.stringify(route(method, url.pathname, recorded.query, recorded.body));
    } catch (error) {
      const fakeError =
        error instanceof StripeFakeError
          ? error
          : new StripeFakeError(500, 'api_error', error instanceof Error ? error.message : 'error');
      status = fakeError.status;
      text = JSON.stringify({
        error: {
          type: status >= 500 ? 'api_error' : 'invalid_request_error',
          code: fakeError.code,
          message: fakeError.message,
        },
      });
    }
    if (replayKey) idempotent.set(replayKey, { body: rawBody, status, response: text });
    send(response, status, text);
  });

  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('Stripe fake is not listening');

  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    requestsTo: (method, path) => requests.filter((r) => r.method === method && r.path === path),
    customers,
    products,
    prices,
    sessions,
    subscriptions,
    invoices,
    creditNotes,
    refunds,
    taxRates,
    payInvoice(id) {
      const invoice = invoices.get(id);
      if (!invoice) throw missing('invoice', id);
      invoice.status = 'paid';
      invoice.amount_paid = invoice.amount_remaining;
      invoice.amount_remaining = 0;
      return invoice;
    },
    completeCheckoutSession(sessionId, buyer) {
      const session = sessions.get(sessionId);
      if (!session) throw missing('checkout.session', sessionId);
      let customerId = session.customer;
      if (!customerId) {
        const customer = {
          object: 'customer',
          id: newId('cus'),
          email: buyer.email,
          currency: null,
          metadata: {},
        };
        customers.set(customer.id, customer);
        customerId = customer.id;
      }
      const subscription = createSubscription(session, customerId);
      const customer = customers.get(customerId);
      // Checkout saves the e-mail address typed there on a customer that had none (as Stripe does).
      if (customer && !customer.email) customer.email = buyer.email;
      if (customer && !customer.currency) {
        customer.currency = prices.get(session.line_items[0]?.price ?? '')?.currency ?? null;
      }
      session.status = 'complete';
      session.customer = customerId;
      session.subscription = subscription.id;
      session.customer_details = { email: buyer.email };
      return subscription;
    },
    updateSubscription(id, patch) {
      const subscription = subscriptions.get(id);
      if (!subscription) throw missing('subscription', id);
      Object.assign(subscription, patch);
      return subscription;
    },
    setNow(epochSeconds) {
      now = epochSeconds;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
