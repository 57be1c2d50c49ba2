/** @jsxImportSource hono/jsx */
import { billingPeriods, editions, planName, priceConfig } from '#shared/pricing/index.ts';
import { vatAmounts, vatLabel, type VatDecision } from '#shared/pricing/vat.ts';
import { formatEmailDate } from '#server/platform/email/render-email.ts';
import type { DocumentStanding } from '#server/billing/documents/document-standing.ts';
import { siteConfig } from '#shared/site-config.ts';
import { formatMinorAmount, periodAmount, type ProrationPreview } from '../local-billing.ts';
import type { CardField } from '../local-cards.ts';
import type {
  LocalCustomer,
  LocalInvoice,
  LocalSubscription,
} from '../local-payment-repository.ts';
import type { PlanChange } from '../manage-local-subscription.ts';
import { CardFields, CsrfField, Field, SelectField } from './form-fields.tsx';
import { PageLayout, periodWord, product } from './page-layout.tsx';
import { currencyUnchangeableMessage } from './portal-messages.ts';

/** An invoice's document as the portal links it (decisions 180, 220). */
export interface PortalDocument {
  number: string;
  url: string;
  /** What it asks for or was paid, with VAT. */
  grossMinor: number;
  standing: DocumentStanding;
  creditNotes: Array<{ number: string; url: string }>;
}

export interface PortalSubscriptionView {
  subscription: LocalSubscription;
  invoices: LocalInvoice[];
  /** The documents of its invoices, by the provider's invoice id. */
  documents: Map<string, PortalDocument>;
  /** The VAT its payments are charged (the buyer of its latest invoice): amounts are gross. */
  vat: VatDecision;
  /** A plan change being previewed for this subscription. */
  /** The VAT of the change's invoice: the preview shows what the card is charged (decision 180). */
  preview?: { change: PlanChange; proration: ProrationPreview; vat: VatDecision } | undefined;
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

function StatusBadge({ subscription }: { subscription: LocalSubscription }) {
  if (subscription.endedAt) return <span class="badge muted">Cancelled</span>;
  if (subscription.status === 'past_due') return <span class="badge warn">Payment failed</span>;
  if (subscription.status === 'unpaid') {
    return <span class="badge danger">Unpaid — licence deactivated</span>;
  }
  if (subscription.cancelAtPeriodEnd) {
    return (
      <span class="badge warn">Cancels on {formatEmailDate(subscription.currentPeriodEnd)}</span>
    );
  }
  return <span class="badge">Active</span>;
}

function MoneyLine(props: { label: string; value: string; total?: boolean }) {
  return (
    <div class={props.total ? 'line total' : 'line'}>
      <dt>{props.label}</dt>
      <dd>{props.value}</dd>
    </div>
  );
}

/** What a previewed plan change costs now and later, and the form that confirms it. */
function ChangePreview(props: {
  portalSessionId: string;
  csrfToken: string;
  subscription: LocalSubscription;
  preview: NonNullable<PortalSubscriptionView['preview']>;
}) {
  const { subscription } = props;
  const { change, proration, vat } = props.preview;
  const now = vatAmounts(proration.total, vat);
  const next = vatAmounts(proration.nextPeriodAmount, vat);
  const money = (amount: number) => formatMinorAmount(amount, subscription.currency);
  const base = `/billing/local/portal/${props.portalSessionId}/subscriptions/${subscription.id}`;
  const period = periodWord(change.billingPeriod);
  const when = proration.startsNewPeriod
    ? `Your new billing period starts today. Next payment on ${formatEmailDate(proration.periodEnd)}:`
    : `From ${formatEmailDate(proration.periodEnd)}:`;
  return (
    <div class="alert info" role="status">
      <p>
        <strong>{`Preview: ${planName(change.edition, change.quantity)}, billed ${change.billingPeriod}`}</strong>
      </p>
      <dl>
        <MoneyLine
          label="Credit for unused time on your current plan"
          value={money(proration.credit)}
        />
        <MoneyLine
          label={
            proration.startsNewPeriod
              ? `A new ${period} on the new plan, from today`
              : 'Remaining time on the new plan'
          }
          value={money(proration.charge)}
        />
        <MoneyLine label="Net" value={money(now.netMinor)} />
        <MoneyLine label={vatLabel(vat)} value={money(now.vatMinor)} />
        <MoneyLine
          label={now.grossMinor >= 0 ? 'Charged now' : 'Credited now'}
          value={money(Math.abs(now.grossMinor))}
          total
        />
      </dl>
      {vat.note ? <p>{vat.note}</p> : null}
      <p>
        {`${when} ${money(next.grossMinor)} per ${period}${next.vatMinor !== 0 ? ` (${money(next.netMinor)} plus ${vatLabel(vat)})` : ''}. The change takes effect immediately.`}
      </p>
      <form method="post" action={`${base}/plan`} class="actions">
        <CsrfField token={props.csrfToken} />
        <input type="hidden" name="edition" value={change.edition} />
        <input type="hidden" name="quantity" value={change.quantity} />
        <input type="hidden" name="billingPeriod" value={change.billingPeriod} />
        <button type="submit" class="button">
          Confirm change
        </button>
        <a href={`/billing/local/portal/${props.portalSessionId}`}>Keep current plan</a>
      </form>
    </div>
  );
}

/** The GET form that previews a change of plan, quantity or billing period. */
function ChangePlanForm(props: {
  portalSessionId: string;
  csrfToken: string;
  item: PortalSubscriptionView;
}) {
  const { subscription, preview, planError } = props.item;
  return (
    <>
      <h3>Change plan, quantity or billing period</h3>
      {planError ? (
        <div class="alert danger" role="alert">
          <p>{planError}</p>
        </div>
      ) : null}
      {preview ? (
        <ChangePreview
          portalSessionId={props.portalSessionId}
          csrfToken={props.csrfToken}
          subscription={subscription}
          preview={preview}
        />
      ) : null}
      <form method="get" action={`/billing/local/portal/${props.portalSessionId}`}>
        <input type="hidden" name="change" value={subscription.id} />
        <div class="row three">
          <SelectField
            id={`edition-${subscription.id}`}
            name="edition"
            label="Plan"
            options={editions.map((edition) => ({ value: edition, label: edition }))}
            selected={preview?.change.edition ?? subscription.edition}
          />
          <Field
            id={`quantity-${subscription.id}`}
            name="quantity"
            label="Orgs"
            type="number"
            inputmode="numeric"
            min={priceConfig.starterStartSize}
            max={priceConfig.enterpriseStartSize}
            hint={`Starter ${priceConfig.starterStartSize}, Pro ${priceConfig.proStartSize}–${priceConfig.enterpriseStartSize - 1}, Enterprise ${priceConfig.enterpriseStartSize}`}
            value={String(preview?.change.quantity ?? subscription.quantity)}
          />
          <SelectField
            id={`period-${subscription.id}`}
            name="billingPeriod"
            label="Billing period"
            options={billingPeriods.map((period) => ({
              value: period,
              label: period === 'monthly' ? 'Monthly' : 'Yearly (10% off)',
            }))}
            selected={preview?.change.billingPeriod ?? subscription.billingPeriod}
          />
        </div>
        <p class="note currency">
          Billed in {subscription.currency}. {currencyUnchangeableMessage}
        </p>
        <button type="submit" class="button secondary">
          Preview change
        </button>
      </form>
    </>
  );
}

/** Cancel a live subscription, or withdraw a cancellation at the end of the period. */
function Cancellation(props: {
  action: string;
  csrfToken: string;
  subscription: LocalSubscription;
}) {
  const { subscription } = props;
  const periodEnd = formatEmailDate(subscription.currentPeriodEnd);
  if (subscription.cancelAtPeriodEnd) {
    return (
      <>
        <h3>Cancellation</h3>
        <p>Your subscription ends on {periodEnd}.</p>
        <form method="post" action={`${props.action}/resume`}>
          <CsrfField token={props.csrfToken} />
          <button type="submit" class="button secondary">
            Don’t cancel
          </button>
        </form>
      </>
    );
  }
  return (
    <>
      <h3>Cancel subscription</h3>
      <p>
        {subscription.edition === 'Starter'
          ? 'A Free licence is cancelled immediately: its key stops working at once.'
          : `Your licence stays valid until the end of the period you paid for, ${periodEnd}. No refunds.`}
      </p>
      <form method="post" action={`${props.action}/cancel`}>
        <CsrfField token={props.csrfToken} />
        <button type="submit" class="button danger">
          Cancel subscription
        </button>
      </form>
    </>
  );
}

/** An invoice's state in words: its document's standing when it has one. */
function invoiceStatus(invoice: LocalInvoice, document: PortalDocument | undefined): string {
  switch (document?.standing.status) {
    case 'paid':
      return 'Paid';
    case 'partly refunded':
      return 'Paid, partly refunded';
    case 'refunded':
      return 'Refunded';
    case 'credited':
      return 'Cancelled';
    case 'open':
      return 'Open';
    default:
      return invoice.status === 'paid' ? 'Paid' : invoice.status === 'open' ? 'Open' : 'Cancelled';
  }
}

function InvoiceTable(props: { item: PortalSubscriptionView }) {
  const { subscription, invoices, documents, vat } = props.item;
  if (invoices.length === 0) return <p>No invoices yet.</p>;
  const money = (minor: number) => formatMinorAmount(minor, subscription.currency);
  return (
    <table>
      <caption class="visually-hidden">
        Invoices of {planName(subscription.edition, subscription.quantity)}
      </caption>
      <thead>
        <tr>
          <th scope="col">Date</th>
          <th scope="col">Description</th>
          <th scope="col" class="amount">
            Amount (with VAT)
          </th>
          <th scope="col">Status</th>
          <th scope="col">Document</th>
        </tr>
      </thead>
      <tbody>
        {invoices.map((invoice) => {
          const document = documents.get(invoice.id);
          // What was charged or asked for, with VAT: the document's, else the same rule's.
          const gross = document?.grossMinor ?? vatAmounts(invoice.amount, vat).grossMinor;
          return (
            <tr>
              <td>{formatEmailDate(invoice.createdAt)}</td>
              <td>{invoice.description}</td>
              <td class="amount">{money(gross)}</td>
              <td>{invoiceStatus(invoice, document)}</td>
              <td>
                {document ? (
                  <>
                    <a href={document.url} rel="noreferrer">
                      {document.number} (PDF)
                    </a>
                    {document.creditNotes.map((note) => (
                      <>
                        {' · '}
                        <a href={note.url} rel="noreferrer">
                          {note.number} (PDF)
                        </a>
                      </>
                    ))}
                  </>
                ) : (
                  '–'
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function SubscriptionSection(props: {
  portalSessionId: string;
  csrfToken: string;
  now: Date;
  item: PortalSubscriptionView;
}) {
  const { subscription } = props.item;
  const base = `/billing/local/portal/${props.portalSessionId}/subscriptions/${subscription.id}`;
  const live = subscription.endedAt === null;
  const changeable = live && ['active', 'trialing'].includes(subscription.status);
  // What the next payment charges: the period's price with the VAT of its buyer.
  const next = vatAmounts(periodAmount(subscription), props.item.vat);
  const money = (minor: number) => formatMinorAmount(minor, subscription.currency);
  const headingId = `sub-${subscription.id}`;
  return (
    <section class="card" aria-labelledby={headingId}>
      <h2 id={headingId}>{planName(subscription.edition, subscription.quantity)}</h2>
      <p>
        <StatusBadge subscription={subscription} />
      </p>
      <dl>
        <div class="line">
          <dt>Billing</dt>
          <dd>
            {subscription.billingPeriod === 'monthly' ? 'Monthly' : 'Yearly'},{' '}
            {subscription.currency}
          </dd>
        </div>
        {live ? (
          <div class="line">
            <dt>{subscription.cancelAtPeriodEnd ? 'Ends on' : 'Next payment'}</dt>
            <dd>
              {formatEmailDate(subscription.currentPeriodEnd)}
              {subscription.cancelAtPeriodEnd
                ? ''
                : ` · ${money(next.grossMinor)}${next.vatMinor !== 0 ? ` (${money(next.netMinor)} plus ${vatLabel(props.item.vat)})` : ''}`}
            </dd>
          </div>
        ) : (
          <div class="line">
            <dt>Ended on</dt>
            <dd>{formatEmailDate(subscription.endedAt ?? props.now)}</dd>
          </div>
        )}
      </dl>
      {subscription.status === 'past_due' || subscription.status === 'unpaid' ? (
        <div class="alert danger">
          <p>
            The last payment failed. Update your card below: the open invoice is paid with it at
            once.
          </p>
        </div>
      ) : null}
      {changeable ? (
        <ChangePlanForm
          portalSessionId={props.portalSessionId}
          csrfToken={props.csrfToken}
          item={props.item}
        />
      ) : null}
      {live ? (
        <Cancellation action={base} csrfToken={props.csrfToken} subscription={subscription} />
      ) : null}
      <h3>Invoices</h3>
      <InvoiceTable item={props.item} />
    </section>
  );
}

/**
 * The billing details future invoices carry, and how to change them: this test portal changes
 * the card only, and says so (decision 220).
 */
function BillingDetails(props: { subscriptions: PortalSubscriptionView[] }) {
  const latest = props.subscriptions
    .flatMap((item) => item.invoices)
    .filter((invoice) => invoice.companyName || invoice.billingAddress || invoice.vatId)
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
  return (
    <section class="card" aria-labelledby="billing-heading">
      <h2 id="billing-heading">Billing details</h2>
      {latest ? (
        <dl>
          {latest.companyName ? (
            <div class="line">
              <dt>Company</dt>
              <dd>{latest.companyName}</dd>
            </div>
          ) : null}
          {latest.billingAddress ? (
            <div class="line">
              <dt>Address</dt>
              <dd>{latest.billingAddress}</dd>
            </div>
          ) : null}
          {latest.vatId ? (
            <div class="line">
              <dt>VAT ID</dt>
              <dd>{latest.vatId}</dd>
            </div>
          ) : null}
        </dl>
      ) : (
        <p>Your receipts name your e-mail address; no company, address or VAT ID is on file.</p>
      )}
      <p>
        This test-mode portal changes only your card. To change the company, address or VAT ID on
        future invoices, write to{' '}
        <a href={`mailto:${siteConfig.salesEmail}`}>{siteConfig.salesEmail}</a> quoting your latest
        invoice number. Invoices already issued stay as they are.
      </p>
    </section>
  );
}

/** The billing portal: each subscription with its plan change, cancellation and invoices; the card. */
function PortalPage(view: PortalPageView) {
  const { customer, notice } = view;
  const card = customer.cardLast4
    ? `${customer.cardBrand ?? 'Card'} ending in ${customer.cardLast4}`
    : 'No card on file';
  return (
    <PageLayout title="Billing portal" subtitle="Billing portal">
      <a class="back" href={view.returnUrl}>
        ← Return to {product}
      </a>
      <h1>Billing portal</h1>
      <p class="lead">Subscriptions of {customer.email}</p>
      {notice ? (
        <div class={`alert ${notice.tone}`} role={notice.tone === 'danger' ? 'alert' : 'status'}>
          <p>{notice.text}</p>
        </div>
      ) : null}
      {view.subscriptions.length === 0 ? (
        <section class="card">
          <p>No subscriptions.</p>
        </section>
      ) : null}
      {view.subscriptions.map((item) => (
        <SubscriptionSection
          portalSessionId={view.portalSessionId}
          csrfToken={view.csrfToken}
          now={view.now}
          item={item}
        />
      ))}
      <BillingDetails subscriptions={view.subscriptions} />
      <section class="card" aria-labelledby="card-heading">
        <h2 id="card-heading">Payment method</h2>
        <p>{card}</p>
        <form
          method="post"
          action={`/billing/local/portal/${view.portalSessionId}/card`}
          novalidate
        >
          <CsrfField token={view.csrfToken} />
          <fieldset>
            <legend>Update card</legend>
            <CardFields values={view.card.values} errors={view.card.errors} />
          </fieldset>
          <button type="submit" class="button secondary">
            Save card
          </button>
        </form>
      </section>
    </PageLayout>
  );
}

export function portalPage(view: PortalPageView) {
  return <PortalPage {...view} />;
}
