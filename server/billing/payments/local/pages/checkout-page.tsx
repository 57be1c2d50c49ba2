/** @jsxImportSource hono/jsx */
import { vatOfPayment } from '#server/billing/documents/payment-document.ts';
import { calculatePrice, formatPrice, priceConfig, unitPrices } from '#shared/pricing/index.ts';
import { vatAmounts, vatLabel } from '#shared/pricing/vat.ts';
import { formatMinorAmount } from '../local-billing.ts';
import type { LocalCheckoutSession } from '../local-payment-repository.ts';
import { CardFields, CsrfField, Field } from './form-fields.tsx';
import { PageLayout, periodWord, product } from './page-layout.tsx';

export type CheckoutField = 'email' | 'cardNumber' | 'cardExpiry' | 'cardCvc';

export interface CheckoutPageView {
  session: LocalCheckoutSession;
  csrfToken: string;
  values: Record<CheckoutField, string>;
  errors: Partial<Record<CheckoutField, string>>;
  /** The billing error shown above the form (a declined card). */
  failure?: { title: string; message: string } | undefined;
}

/**
 * What a card charge of the test provider costs with VAT, by the one rule (decision 219) for the
 * company named before the checkout: the figures its receipt will show. A session that names no
 * company (an older client) is taxed as a German buyer, as its receipt is (decision 180).
 */
function taxOf(session: LocalCheckoutSession, netTotal: number) {
  const decision = vatOfPayment(session);
  const amounts = vatAmounts(Math.round(netTotal * 100), decision);
  const money = (minor: number) => formatMinorAmount(minor, session.currency);
  return {
    label: vatLabel(decision),
    note: decision.note,
    vat: money(amounts.vatMinor),
    gross: money(amounts.grossMinor),
  };
}

/** Who the receipt is made out to: the company, its address and VAT ID, and the quote. */
function BilledTo({ session }: { session: LocalCheckoutSession }) {
  if (!session.companyName) return null;
  const lines = session.billingAddress ? session.billingAddress.split('\n') : [];
  return (
    <div class="billed-to">
      <h3>Billed to</h3>
      <p>
        <strong>{session.companyName}</strong>
        {lines.map((line) => (
          <>
            <br />
            {line}
          </>
        ))}
      </p>
      {session.vatId ? <p>{`VAT ID ${session.vatId}`}</p> : null}
      {session.quoteNumber ? <p>{`Quote ${session.quoteNumber}`}</p> : null}
    </div>
  );
}

function SummaryLine(props: { label: string; value: string }) {
  return (
    <div class="line">
      <dt>{props.label}</dt>
      <dd>{props.value}</dd>
    </div>
  );
}

/** The order as the buyer sees it: every figure from the pricing engine. */
function OrderSummary({ session }: { session: LocalCheckoutSession }) {
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
  const taxed = taxOf(session, price.selected.total);
  const total = price.isFree ? 'Free' : `${taxed.gross} per ${per}`;
  return (
    <section class="card summary" aria-labelledby="order-heading">
      <h2 id="order-heading">Your order</h2>
      <p>
        <strong>{`${product} ${session.edition}`}</strong>
        {session.edition === 'Pro' ? ` · ${session.quantity} orgs` : ''} · billed{' '}
        {session.billingPeriod} in {session.currency}
      </p>
      <dl>
        {session.edition === 'Pro' ? (
          <>
            <SummaryLine
              label={`Base price (first ${priceConfig.proStartSize} orgs)`}
              value={amount(price.selected.base)}
            />
            {extraOrgs > 0 ? (
              <SummaryLine
                label={`${extraOrgs} additional ${extraOrgs === 1 ? 'org' : 'orgs'} × ${amount(perOrg)}`}
                value={amount(price.selected.size)}
              />
            ) : null}
          </>
        ) : session.edition === 'Enterprise' ? (
          <SummaryLine label="Unlimited orgs and stacks" value={amount(price.selected.base)} />
        ) : (
          <SummaryLine
            label={`${priceConfig.starterOrgs} orgs, ${priceConfig.starterStacks} stack`}
            value="Free"
          />
        )}
        {price.isFree ? null : (
          <>
            <SummaryLine label="Net" value={amount(price.selected.total)} />
            <SummaryLine label={taxed.label} value={taxed.vat} />
          </>
        )}
        <div class="line total">
          <dt>Total due today</dt>
          <dd>{total}</dd>
        </div>
      </dl>
      {session.billingPeriod === 'yearly' && !price.isFree ? (
        <p class="note">
          You save {amount(price.savedYearly)} a year compared with monthly billing.
        </p>
      ) : null}
      {price.isFree ? (
        <p class="note">
          {product} Starter is free: nothing is charged, now or later, and no card is needed. Cancel
          at any time in the billing portal.
        </p>
      ) : (
        <>
          {taxed.note ? <p class="note">{taxed.note}</p> : null}
          <p class="note">
            Prices are net, with VAT as above. Renews automatically every {per} in advance until
            cancelled; fees paid are not refunded (see the <a href="/eula/cli">licence terms</a>).
          </p>
        </>
      )}
      <BilledTo session={session} />
    </section>
  );
}

function CheckoutPage({ session, values, errors, failure, csrfToken }: CheckoutPageView) {
  const price = calculatePrice({
    size: session.quantity,
    billingPeriod: session.billingPeriod,
    currency: session.currency,
  });
  const submitLabel = price.isFree
    ? 'Get my free licence'
    : `Pay ${taxOf(session, price.selected.total).gross}`;
  return (
    <PageLayout title="Checkout" subtitle="Checkout">
      <a class="back" href={session.cancelUrl}>
        ← Back to pricing
      </a>
      <h1>Complete your order</h1>
      <p class="lead">Your licence key is e-mailed to the address you enter here.</p>
      <div class="layout">
        <OrderSummary session={session} />
        <section class="card" aria-labelledby="pay-heading">
          <h2 id="pay-heading">{price.isFree ? 'Your details' : 'Payment details'}</h2>
          {failure ? (
            <div class="alert danger" role="alert" id="checkout-error">
              <p>
                <strong>{failure.title}</strong>
              </p>
              <p>{failure.message}</p>
            </div>
          ) : null}
          <form method="post" action={`/billing/local/checkout/${session.id}`} novalidate>
            <CsrfField token={csrfToken} />
            <Field
              id="email"
              name="email"
              label="Email address"
              type="email"
              autocomplete="email"
              value={session.customerEmail ?? values.email}
              readonly={Boolean(session.customerEmail)}
              required
              hint={
                session.customerEmail
                  ? 'The address of the trial licence you are converting.'
                  : 'We send the licence key and receipts here.'
              }
              error={errors.email}
            />
            {price.isFree ? (
              <p class="note">No card needed: {product} Starter is free.</p>
            ) : (
              <fieldset>
                <legend>Card</legend>
                <CardFields
                  values={values}
                  errors={errors}
                  numberPlaceholder="4242 4242 4242 4242"
                />
              </fieldset>
            )}
            <button type="submit" class="button wide">
              {submitLabel}
            </button>
            <p class="note">
              By subscribing you accept the <a href="/eula/cli">End User License Agreement</a> and
              the <a href="/privacy">privacy policy</a>.
            </p>
          </form>
        </section>
      </div>
    </PageLayout>
  );
}

/** The hosted checkout page: order summary, e-mail address and, for a paid plan, the card. */
export function checkoutPage(view: CheckoutPageView) {
  return <CheckoutPage {...view} />;
}
