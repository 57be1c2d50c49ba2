import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import {
  billingPeriods,
  calculatePrice,
  editions,
  formatPrice,
  planName,
  priceConfig,
  unitPrices,
} from '#shared/pricing/index.ts';
import { siteConfig } from '#shared/site-config.ts';
import { formatEmailDate } from '#server/email/render-email.ts';
import { INVOICE_SUSPEND_AFTER_DAYS } from '#server/invoices/invoice-rules.ts';
import { CSRF_FORM_FIELD } from '#server/http/csrf.ts';
import { formatMinorAmount, type ProrationPreview } from './local-billing.ts';
import { groupedCardNumber, localTestCards } from './local-cards.ts';
import type { PlanChange } from './manage-local-subscription.ts';
import type {
  LocalCheckoutSession,
  LocalCustomer,
  LocalInvoice,
  LocalSubscription,
} from './local-payment-repository.ts';

/**
 * The server-rendered pages of the local payment provider (decision 062): plain HTML forms
 * that post with the `_csrf` field, marked TEST MODE everywhere, styled with the site's tokens.
 */

type Markup = HtmlEscapedString | Promise<HtmlEscapedString>;

const product = siteConfig.productName;

/**
 * Every local page: the head (bearer-link URLs: no index; the routes send no referrer) and, with a
 * subtitle, the TEST MODE frame around the body. `refreshTo` makes the page reload there at once.
 */
function layout(input: {
  title: string;
  subtitle?: string;
  body: Markup;
  refreshTo?: string;
}): Markup {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <title>${input.title} - ${product}</title>
        <link rel="stylesheet" href="/billing/local/styles.css" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        ${input.refreshTo ? html`<meta http-equiv="refresh" content="0;url=${input.refreshTo}" />` : ''}
      </head>
      <body>
        ${input.subtitle === undefined ? '' : testModeFrame(input.subtitle)}
        <main id="main">${input.body}</main>
      </body>
    </html>`;
}

function testModeFrame(subtitle: string): Markup {
  return html`<header>
    <p class="test-mode" role="note">
      <strong>TEST MODE</strong> — no real payment is taken. This page stands in for the card
      payment provider.
    </p>
    <div class="brand">
      <div class="inner">
        <span class="name">${product}</span><span class="sub">${subtitle}</span>
      </div>
    </div>
  </header>`;
}

function csrfField(token: string): Markup {
  return html`<input type="hidden" name="${CSRF_FORM_FIELD}" value="${token}" />`;
}

interface FieldInput {
  id: string;
  name: string;
  label: string;
  value: string;
  error?: string | undefined;
  hint?: string;
  type?: string;
  autocomplete?: string;
  inputmode?: string;
  readonly?: boolean;
  required?: boolean;
  placeholder?: string;
  min?: number;
  max?: number;
}

function field(input: FieldInput): Markup {
  const hintId = input.hint ? `${input.id}-hint` : '';
  const errorId = input.error ? `${input.id}-error` : '';
  const describedBy = [hintId, errorId].filter(Boolean).join(' ');
  return html`<div class="field">
    <label for="${input.id}">${input.label}</label>
    ${input.hint ? html`<span class="hint" id="${hintId}">${input.hint}</span>` : ''}
    <input
      id="${input.id}"
      name="${input.name}"
      type="${input.type ?? 'text'}"
      value="${input.value}"
      ${
        input.autocomplete ? html` autocomplete="${input.autocomplete}"` : ''
      }${input.inputmode ? html` inputmode="${input.inputmode}"` : ''}${
        input.placeholder ? html` placeholder="${input.placeholder}"` : ''
      }${input.min !== undefined ? html` min="${input.min}"` : ''}${
        input.max !== undefined ? html` max="${input.max}"` : ''
      }${input.readonly ? html` readonly` : ''}${input.required ? html` required` : ''}${
        describedBy ? html` aria-describedby="${describedBy}"` : ''
      }${input.error ? html` aria-invalid="true"` : ''}
    />
    ${input.error ? html`<span class="error" id="${errorId}">${input.error}</span>` : ''}
  </div>`;
}

function selectField(input: {
  id: string;
  name: string;
  label: string;
  options: Array<{ value: string; label: string }>;
  selected: string;
}): Markup {
  return html`<div class="field">
    <label for="${input.id}">${input.label}</label>
    <select id="${input.id}" name="${input.name}">
      ${input.options.map(
        (option) =>
          html`<option
            value="${option.value}"
            ${option.value === input.selected ? html` selected` : ''}
          >
            ${option.label}
          </option>`,
      )}
    </select>
  </div>`;
}

function testCardsBox(): Markup {
  return html`<div class="test-cards" id="test-cards">
    <p><strong>Test cards</strong> (any future expiry date, any 3-digit code):</p>
    <ul>
      ${localTestCards.map(
        (card) =>
          html`<li>
            <code>${groupedCardNumber(card.number)}</code> —
            ${card.outcome === 'succeeds' ? 'payment succeeds' : 'card is declined'}
          </li>`,
      )}
    </ul>
  </div>`;
}

type CardField = 'cardNumber' | 'cardExpiry' | 'cardCvc';

/** The test-card box and the card number, expiry and security code inputs. */
function cardFields(
  values: Record<CardField, string>,
  errors: Partial<Record<CardField, string>>,
  numberPlaceholder?: string,
): Markup {
  return html`${testCardsBox()}
    ${field({
      id: 'cardNumber',
      name: 'cardNumber',
      label: 'Card number',
      autocomplete: 'cc-number',
      inputmode: 'numeric',
      ...(numberPlaceholder ? { placeholder: numberPlaceholder } : {}),
      value: values.cardNumber,
      required: true,
      error: errors.cardNumber,
    })}
    <div class="row">
      ${field({
        id: 'cardExpiry',
        name: 'cardExpiry',
        label: 'Expiry date',
        hint: 'MM / YY',
        autocomplete: 'cc-exp',
        inputmode: 'numeric',
        value: values.cardExpiry,
        required: true,
        error: errors.cardExpiry,
      })}
      ${field({
        id: 'cardCvc',
        name: 'cardCvc',
        label: 'Security code',
        hint: '3 or 4 digits',
        autocomplete: 'cc-csc',
        inputmode: 'numeric',
        value: values.cardCvc,
        required: true,
        error: errors.cardCvc,
      })}
    </div>`;
}

function periodWord(period: 'monthly' | 'yearly'): string {
  return period === 'monthly' ? 'month' : 'year';
}

/** The order as the buyer sees it: every figure from the pricing engine. */
function orderSummary(session: LocalCheckoutSession): Markup {
  const price = calculatePrice({
    size: session.quantity,
    billingPeriod: session.billingPeriod,
    currency: session.currency,
  });
  const amount = (value: number) => formatPrice(value, session.currency);
  const per = periodWord(session.billingPeriod);
  const perOrg = unitPrices(session.edition, session.currency)[session.billingPeriod].perOrg;
  const orgs = price.info.orgs;
  const extraOrgs =
    typeof orgs === 'number' ? orgs - priceConfig.proStartSize * priceConfig.proOrgsPerSizeUnit : 0;
  const lines: Markup[] = [];
  if (session.edition === 'Pro') {
    lines.push(
      html`<div class="line">
        <dt>Base price (first ${priceConfig.proStartSize} orgs)</dt>
        <dd>${amount(price.selected.base)}</dd>
      </div>`,
    );
    if (extraOrgs > 0) {
      lines.push(
        html`<div class="line">
          <dt>${extraOrgs} additional ${extraOrgs === 1 ? 'org' : 'orgs'} × ${amount(perOrg)}</dt>
          <dd>${amount(price.selected.size)}</dd>
        </div>`,
      );
    }
  } else if (session.edition === 'Enterprise') {
    lines.push(
      html`<div class="line">
        <dt>Unlimited orgs and stacks</dt>
        <dd>${amount(price.selected.base)}</dd>
      </div>`,
    );
  } else {
    lines.push(
      html`<div class="line">
        <dt>${priceConfig.starterOrgs} orgs, ${priceConfig.starterStacks} stack</dt>
        <dd>Free</dd>
      </div>`,
    );
  }
  const total = price.isFree ? 'Free' : `${amount(price.selected.total)} per ${per}`;
  return html`<section class="card summary" aria-labelledby="order-heading">
    <h2 id="order-heading">Your order</h2>
    <p>
      <strong>${product} ${session.edition}</strong>${
        session.edition === 'Pro' ? html` · ${session.quantity} orgs` : ''
      }
      · billed ${session.billingPeriod} in ${session.currency}
    </p>
    <dl>
      ${lines}
      <div class="line total">
        <dt>Total due today</dt>
        <dd>${total}</dd>
      </div>
    </dl>
    ${
      session.billingPeriod === 'yearly' && !price.isFree
        ? html`<p class="note">
            You save ${amount(price.savedYearly)} a year compared with monthly billing.
          </p>`
        : ''
    }
    <p class="note">
      Renews automatically every ${per} in advance until cancelled; no refunds (see the
      <a href="/eula/cli">licence terms</a>).
    </p>
  </section>`;
}

export type CheckoutField = 'email' | 'cardNumber' | 'cardExpiry' | 'cardCvc';

export interface CheckoutPageView {
  session: LocalCheckoutSession;
  csrfToken: string;
  values: Record<CheckoutField, string>;
  errors: Partial<Record<CheckoutField, string>>;
  /** The billing error shown above the form (a declined card). */
  failure?: { title: string; message: string } | undefined;
}

export function checkoutPage(view: CheckoutPageView): Markup {
  const { session, values, errors } = view;
  const free = calculatePrice({
    size: session.quantity,
    billingPeriod: session.billingPeriod,
    currency: session.currency,
  });
  const submitLabel = free.isFree
    ? 'Get my free licence'
    : `Pay ${formatPrice(free.selected.total, session.currency)}`;
  const body = html`<a class="back" href="${session.cancelUrl}">← Back to pricing</a>
    <h1>Complete your order</h1>
    <p class="lead">Your licence key is e-mailed to the address you enter here.</p>
    <div class="layout">
      ${orderSummary(session)}
      <section class="card" aria-labelledby="pay-heading">
        <h2 id="pay-heading">${free.isFree ? 'Your details' : 'Payment details'}</h2>
        ${
          view.failure
            ? html`<div class="alert danger" role="alert" id="checkout-error">
                <p><strong>${view.failure.title}</strong></p>
                <p>${view.failure.message}</p>
              </div>`
            : ''
        }
        <form method="post" action="/billing/local/checkout/${session.id}" novalidate>
          ${csrfField(view.csrfToken)}
          ${field({
            id: 'email',
            name: 'email',
            label: 'Email address',
            type: 'email',
            autocomplete: 'email',
            value: session.customerEmail ?? values.email,
            readonly: Boolean(session.customerEmail),
            required: true,
            hint: session.customerEmail
              ? 'The address of the trial licence you are converting.'
              : 'We send the licence key and receipts here.',
            error: errors.email,
          })}
          ${
            free.isFree
              ? html`<p class="note">No card needed: ${product} Starter is free.</p>`
              : html`<fieldset>
                  <legend>Card</legend>
                  ${cardFields(values, errors, '4242 4242 4242 4242')}
                </fieldset>`
          }
          <button type="submit" class="button wide">${submitLabel}</button>
          <p class="note">
            By subscribing you accept the <a href="/eula/cli">End User License Agreement</a> and the
            <a href="/privacy">privacy policy</a>.
          </p>
        </form>
      </section>
    </div>`;
  return layout({ title: 'Checkout', subtitle: 'Checkout', body });
}

export function messagePage(input: {
  title: string;
  paragraphs: string[];
  link: { href: string; label: string };
}): Markup {
  return layout({
    title: input.title,
    subtitle: 'Billing',
    body: html`<h1>${input.title}</h1>
      <section class="card">
        ${input.paragraphs.map((text) => html`<p>${text}</p>`)}
        <p><a class="button" href="${input.link.href}">${input.link.label}</a></p>
      </section>`,
  });
}

/** First visit without the CSRF cookie: the response sets it, the refresh comes back with it. */
export function cookieInterstitialPage(retryUrl: string): Markup {
  return layout({
    title: 'Loading',
    refreshTo: retryUrl,
    body: html`<p>Loading… If nothing happens, <a href="${retryUrl}">continue</a>.</p>`,
  });
}

export interface PortalSubscriptionView {
  subscription: LocalSubscription;
  invoices: LocalInvoice[];
  /** A plan change being previewed for this subscription. */
  preview?: { change: PlanChange; proration: ProrationPreview } | undefined;
  planError?: string | undefined;
}

export interface PortalPageView {
  portalSessionId: string;
  customer: LocalCustomer;
  subscriptions: PortalSubscriptionView[];
  returnUrl: string;
  csrfToken: string;
  now: Date;
  notice?: { tone: 'success' | 'danger' | 'info'; text: string } | undefined;
  card: {
    values: Record<CardField, string>;
    errors: Partial<Record<CardField, string>>;
  };
}

function statusBadge(subscription: LocalSubscription): Markup {
  if (subscription.endedAt) return html`<span class="badge muted">Cancelled</span>`;
  if (subscription.status === 'past_due')
    return html`<span class="badge warn">Payment failed</span>`;
  if (subscription.status === 'unpaid')
    return html`<span class="badge danger">Unpaid — licence deactivated</span>`;
  if (subscription.cancelAtPeriodEnd) {
    return html`<span class="badge warn"
      >Cancels on ${formatEmailDate(subscription.currentPeriodEnd)}</span
    >`;
  }
  return html`<span class="badge">Active</span>`;
}

/** Why the portal offers no currency switch (decision 090); also its answer to a tampered one. */
export const currencyUnchangeableMessage =
  'A subscription keeps the currency it was bought in. To pay in another currency, cancel this subscription and buy a new one in that currency on the pricing page.';

function changePreview(
  view: PortalPageView,
  subscription: LocalSubscription,
  preview: NonNullable<PortalSubscriptionView['preview']>,
): Markup {
  const { change, proration } = preview;
  const money = (amount: number) => formatMinorAmount(amount, subscription.currency);
  const base = `/billing/local/portal/${view.portalSessionId}/subscriptions/${subscription.id}`;
  const period = periodWord(change.billingPeriod);
  const heading = `Preview: ${planName(change.edition, change.quantity)}, billed ${change.billingPeriod}`;
  return html`<div class="alert info" role="status">
    <p><strong>${heading}</strong></p>
    <dl>
      <div class="line">
        <dt>Credit for unused time on your current plan</dt>
        <dd>${money(proration.credit)}</dd>
      </div>
      <div class="line">
        <dt>
          ${proration.startsNewPeriod ? `A new ${period} on the new plan, from today` : 'Remaining time on the new plan'}
        </dt>
        <dd>${money(proration.charge)}</dd>
      </div>
      <div class="line total">
        <dt>${proration.total >= 0 ? 'Charged now' : 'Credited now'}</dt>
        <dd>${money(Math.abs(proration.total))}</dd>
      </div>
    </dl>
    <p>
      ${
        proration.startsNewPeriod
          ? `Your new billing period starts today. Next payment on ${formatEmailDate(proration.periodEnd)}:`
          : `From ${formatEmailDate(proration.periodEnd)}:`
      }
      ${money(proration.nextPeriodAmount)} per ${period}. The change takes effect immediately.
    </p>
    <form method="post" action="${base}/plan" class="actions">
      ${csrfField(view.csrfToken)}
      <input type="hidden" name="edition" value="${change.edition}" />
      <input type="hidden" name="quantity" value="${change.quantity}" />
      <input type="hidden" name="billingPeriod" value="${change.billingPeriod}" />
      <button type="submit" class="button">Confirm change</button>
      <a href="/billing/local/portal/${view.portalSessionId}">Keep current plan</a>
    </form>
  </div>`;
}

function subscriptionSection(view: PortalPageView, item: PortalSubscriptionView): Markup {
  const { subscription, preview } = item;
  const base = `/billing/local/portal/${view.portalSessionId}/subscriptions/${subscription.id}`;
  const money = (amount: number) => formatMinorAmount(amount, subscription.currency);
  const live = subscription.endedAt === null;
  const changeable = live && ['active', 'trialing'].includes(subscription.status);
  const nextAmount = calculatePrice({
    size: subscription.quantity,
    billingPeriod: subscription.billingPeriod,
    currency: subscription.currency,
  }).selected.total;
  const headingId = `sub-${subscription.id}`;
  return html`<section class="card" aria-labelledby="${headingId}">
    <h2 id="${headingId}">${planName(subscription.edition, subscription.quantity)}</h2>
    <p>${statusBadge(subscription)}</p>
    <dl>
      <div class="line">
        <dt>Billing</dt>
        <dd>
          ${subscription.billingPeriod === 'monthly' ? 'Monthly' : 'Yearly'},
          ${subscription.currency}
        </dd>
      </div>
      ${
        live
          ? html`<div class="line">
              <dt>${subscription.cancelAtPeriodEnd ? 'Ends on' : 'Next payment'}</dt>
              <dd>
                ${formatEmailDate(subscription.currentPeriodEnd)}${
                  subscription.cancelAtPeriodEnd
                    ? ''
                    : html` · ${formatPrice(nextAmount, subscription.currency)}`
                }
              </dd>
            </div>`
          : html`<div class="line">
              <dt>Ended on</dt>
              <dd>${formatEmailDate(subscription.endedAt ?? view.now)}</dd>
            </div>`
      }
    </dl>
    ${
      subscription.status === 'past_due' || subscription.status === 'unpaid'
        ? html`<div class="alert danger">
            <p>
              The last payment failed. Update your card below: the open invoice is paid with it at
              once.
            </p>
          </div>`
        : ''
    }
    ${
      changeable
        ? html`<h3>Change plan, quantity or billing period</h3>
            ${item.planError ? html`<div class="alert danger" role="alert"><p>${item.planError}</p></div>` : ''}
            ${preview ? changePreview(view, subscription, preview) : ''}
            <form method="get" action="/billing/local/portal/${view.portalSessionId}">
              <input type="hidden" name="change" value="${subscription.id}" />
              <div class="row three">
                ${selectField({
                  id: `edition-${subscription.id}`,
                  name: 'edition',
                  label: 'Plan',
                  options: editions.map((edition) => ({ value: edition, label: edition })),
                  selected: preview?.change.edition ?? subscription.edition,
                })}
                ${field({
                  id: `quantity-${subscription.id}`,
                  name: 'quantity',
                  label: 'Orgs',
                  type: 'number',
                  inputmode: 'numeric',
                  min: priceConfig.starterStartSize,
                  max: priceConfig.enterpriseStartSize,
                  hint: `Starter ${priceConfig.starterStartSize}, Pro ${priceConfig.proStartSize}–${priceConfig.enterpriseStartSize - 1}, Enterprise ${priceConfig.enterpriseStartSize}`,
                  value: String(preview?.change.quantity ?? subscription.quantity),
                })}
                ${selectField({
                  id: `period-${subscription.id}`,
                  name: 'billingPeriod',
                  label: 'Billing period',
                  options: billingPeriods.map((period) => ({
                    value: period,
                    label: period === 'monthly' ? 'Monthly' : 'Yearly (10% off)',
                  })),
                  selected: preview?.change.billingPeriod ?? subscription.billingPeriod,
                })}
              </div>
              <p class="note currency">
                Billed in ${subscription.currency}. ${currencyUnchangeableMessage}
              </p>
              <button type="submit" class="button secondary">Preview change</button>
            </form>`
        : ''
    }
    ${
      live
        ? html`<h3>${subscription.cancelAtPeriodEnd ? 'Cancellation' : 'Cancel subscription'}</h3>
            ${
              subscription.cancelAtPeriodEnd
                ? html`<p>
                      Your subscription ends on ${formatEmailDate(subscription.currentPeriodEnd)}.
                    </p>
                    <form method="post" action="${base}/resume">
                      ${csrfField(view.csrfToken)}<button type="submit" class="button secondary">
                        Don’t cancel
                      </button>
                    </form>`
                : html`<p>
                      ${
                        subscription.edition === 'Starter'
                          ? 'A Free licence is cancelled immediately: its key stops working at once.'
                          : `Your licence stays valid until the end of the period you paid for, ${formatEmailDate(subscription.currentPeriodEnd)}. No refunds.`
                      }
                    </p>
                    <form method="post" action="${base}/cancel">
                      ${csrfField(view.csrfToken)}<button type="submit" class="button danger">
                        Cancel subscription
                      </button>
                    </form>`
            }`
        : ''
    }
    <h3>Invoices</h3>
    ${
      item.invoices.length === 0
        ? html`<p>No invoices yet.</p>`
        : html`<table>
            <caption class="visually-hidden">
              Invoices of ${planName(subscription.edition, subscription.quantity)}
            </caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Description</th>
                <th scope="col" class="amount">Amount</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              ${item.invoices.map(
                (invoice) =>
                  html`<tr>
                    <td>${formatEmailDate(invoice.createdAt)}</td>
                    <td>${invoice.description}</td>
                    <td class="amount">${money(invoice.amount)}</td>
                    <td>
                      ${invoice.status === 'paid' ? 'Paid' : invoice.status === 'open' ? 'Open' : 'Void'}
                    </td>
                  </tr>`,
              )}
            </tbody>
          </table>`
    }
  </section>`;
}

export function portalPage(view: PortalPageView): Markup {
  const { customer } = view;
  const card = customer.cardLast4
    ? `${customer.cardBrand ?? 'Card'} ending in ${customer.cardLast4}`
    : 'No card on file';
  const body = html`<a class="back" href="${view.returnUrl}">← Return to ${product}</a>
    <h1>Billing portal</h1>
    <p class="lead">Subscriptions of ${customer.email}</p>
    ${
      view.notice
        ? html`<div
            class="alert ${view.notice.tone}"
            role="${view.notice.tone === 'danger' ? 'alert' : 'status'}"
          >
            <p>${view.notice.text}</p>
          </div>`
        : ''
    }
    ${view.subscriptions.length === 0 ? html`<section class="card"><p>No subscriptions.</p></section>` : ''}
    ${view.subscriptions.map((item) => subscriptionSection(view, item))}
    <section class="card" aria-labelledby="card-heading">
      <h2 id="card-heading">Payment method</h2>
      <p>${card}</p>
      <form method="post" action="/billing/local/portal/${view.portalSessionId}/card" novalidate>
        ${csrfField(view.csrfToken)}
        <fieldset>
          <legend>Update card</legend>
          ${cardFields(view.card.values, view.card.errors)}
        </fieldset>
        <button type="submit" class="button secondary">Save card</button>
      </form>
    </section>`;
  return layout({ title: 'Billing portal', subtitle: 'Billing portal', body });
}

export interface InvoicePageView {
  invoice: LocalInvoice;
  now: Date;
}

function invoiceBadge(invoice: LocalInvoice, now: Date): Markup {
  if (invoice.status === 'paid') return html`<span class="badge">Paid</span>`;
  if (invoice.status === 'void') return html`<span class="badge muted">Void</span>`;
  if (invoice.dueAt && invoice.dueAt <= now) return html`<span class="badge danger">Overdue</span>`;
  return html`<span class="badge warn">Open</span>`;
}

/**
 * The hosted page of an invoice sent for payment (decision 145), as Stripe's hosted invoice
 * page: who it is made out to, the PO number and VAT ID, the amount, due date and status. It is
 * paid by bank transfer; here an operator records that with `invoices mark-paid`.
 */
export function invoicePage(view: InvoicePageView): Markup {
  const { invoice, now } = view;
  const number = invoice.number ?? invoice.id;
  const line = (label: string, value: string | null) =>
    value
      ? html`<div class="line">
          <dt>${label}</dt>
          <dd>${value}</dd>
        </div>`
      : '';
  return layout({
    title: `Invoice ${number}`,
    subtitle: 'Invoice',
    body: html`<h1>Invoice ${number} ${invoiceBadge(invoice, now)}</h1>
      <section class="card summary" aria-labelledby="invoice-details">
        <h2 id="invoice-details">Details</h2>
        <dl>
          ${line('Billed to', invoice.companyName)} ${line('Address', invoice.billingAddress)}
          ${line('E-mail', invoice.billingEmail)} ${line('VAT ID', invoice.vatId)}
          ${line('PO number', invoice.poReference)} ${line('Quote', invoice.quoteReference)}
          ${line('Description', invoice.description)}
          ${line(
            'Period',
            `${formatEmailDate(invoice.periodStart)} – ${formatEmailDate(invoice.periodEnd)}`,
          )}
          ${line('Issued', formatEmailDate(invoice.createdAt))}
          ${line('Due date', invoice.dueAt ? formatEmailDate(invoice.dueAt) : null)}
          ${line('Paid on', invoice.paidAt ? formatEmailDate(invoice.paidAt) : null)}
          <div class="line total">
            <dt>${invoice.status === 'paid' ? 'Amount paid' : 'Amount due'}</dt>
            <dd>${formatMinorAmount(invoice.amount, invoice.currency)}</dd>
          </div>
        </dl>
      </section>
      <section class="card" aria-labelledby="invoice-payment">
        <h2 id="invoice-payment">Payment</h2>
        ${
          invoice.status === 'paid'
            ? html`<p>This invoice is paid. Thank you.</p>`
            : html`<p>
                  Pay by bank transfer with the invoice number ${number} as the reference. In test
                  mode, record the payment with
                  <code>npm run admin -- invoices mark-paid ${number}</code>.
                </p>
                <p>
                  An invoice still open ${INVOICE_SUSPEND_AFTER_DAYS} days after its due date
                  suspends the licence until it is paid.
                </p>`
        }
      </section>`,
  });
}
