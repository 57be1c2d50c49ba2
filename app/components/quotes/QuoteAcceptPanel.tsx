import { Link, useRouteLoaderData } from 'react-router';
import type { RootData } from '#app/root-data.ts';
import { siteConfig } from '#shared/site-config.ts';
import type { QuoteSummary } from '#shared/contracts/quotes.ts';
import { mayPayByInvoice } from '#shared/pricing/index.ts';
import { CheckoutButton } from '../checkout/CheckoutButton.tsx';
import { InvoiceCheckout } from '../checkout/InvoiceCheckout.tsx';
import { quotePath } from '../pricing/price-selection.ts';
import styles from './QuoteAcceptPanel.module.css';

type OpenQuote = Extract<QuoteSummary, { state: 'open' | 'expired' | 'accepted' }>;

/** Where to get a new quote: the pricing page with this quote's selection and the dialog open. */
function newQuotePath(quote: OpenQuote): string {
  return `${quotePath({ size: quote.quantity, billingPeriod: quote.billingPeriod, currency: quote.currency })}&modal=quote`;
}

/** The quote as its PDF states it: facts, priced lines, total and tax note. */
function QuoteFacts({ quote }: { quote: OpenQuote }) {
  return (
    <>
      <dl className={styles.facts}>
        <div>
          <dt>Quote number</dt>
          <dd>{quote.number}</dd>
        </div>
        <div>
          <dt>Date</dt>
          <dd>{quote.quoteDate}</dd>
        </div>
        <div>
          <dt>Valid until</dt>
          <dd>{quote.validUntil}</dd>
        </div>
        <div>
          <dt>For</dt>
          <dd>{quote.companyName}</dd>
        </div>
        {quote.purchaseOrder ? (
          <div>
            <dt>Purchase order</dt>
            <dd>{quote.purchaseOrder}</dd>
          </div>
        ) : null}
      </dl>
      <div className={styles.tableScroll}>
        <table className={styles.lines}>
          <caption className="visually-hidden">Priced lines of quote {quote.number}</caption>
          <thead>
            <tr>
              <th scope="col">Description</th>
              <th scope="col" className={styles.number}>
                Qty
              </th>
              <th scope="col" className={`${styles.number} ${styles.unit}`}>
                Unit price
              </th>
              <th scope="col" className={styles.number}>
                Amount
              </th>
            </tr>
          </thead>
          <tbody>
            {quote.lines.map((line) => (
              <tr key={line.description}>
                <td>{line.description}</td>
                <td className={styles.number}>{line.quantity}</td>
                <td className={`${styles.number} ${styles.unit}`}>{line.unitPrice}</td>
                <td className={styles.number}>{line.amount}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            {quote.totals.map((line) => (
              <tr key={line.label}>
                <th scope="row" colSpan={3}>
                  {line.emphasis ? line.label : <span className={styles.plain}>{line.label}</span>}
                </th>
                <td className={styles.number}>{line.amount}</td>
              </tr>
            ))}
          </tfoot>
        </table>
      </div>
      {quote.yearlySaving ? (
        <p className={styles.saving}>
          Billed yearly, you save {quote.yearlySaving} compared with 12 monthly payments.
        </p>
      ) : null}
      {quote.taxNote ? <p className={styles.tax}>{quote.taxNote}</p> : null}
    </>
  );
}

/**
 * The ways to accept an open quote — the extension point of this page. Each option is one list
 * item that takes the quote; "Pay by card" opens the checkout for the quote's plan, size, period
 * and currency; "Pay by invoice (net 30)" (yearly billing only, decision 144) orders it with the
 * quote's company, e-mail, VAT ID and purchase order filled in, and the link's token, so the
 * order accepts this quote (once, decision 154) and its number is on the invoice.
 */
function AcceptOptions({ quote, token }: { quote: OpenQuote; token: string }) {
  // No bank account in the quote's currency, no invoice in it (decision 218).
  const invoiceCurrencyOffered =
    useRouteLoaderData<RootData>('root')?.invoiceCurrencies.includes(quote.currency) ?? false;
  const selection = {
    size: quote.quantity,
    billingPeriod: quote.billingPeriod,
    currency: quote.currency,
  };
  return (
    <section aria-labelledby="accept-options-title" className={styles.options}>
      <h2 id="accept-options-title">How would you like to accept?</h2>
      <ul className={styles.optionList}>
        <li className={styles.option}>
          <h3>Pay by card</h3>
          <p>
            Buy {quote.planName} now at the quoted price; the licence key arrives by e-mail right
            after the payment.
          </p>
          <CheckoutButton
            edition={quote.edition}
            quantity={quote.quantity}
            selection={selection}
            quoteToken={token}
          />
        </li>
        <li className={styles.option}>
          <h3>Pay by invoice (net 30)</h3>
          {!invoiceCurrencyOffered ? (
            <p>
              Pay by invoice is not offered in {quote.currency}: pay by card, or write to{' '}
              <a href={`mailto:${siteConfig.salesEmail}`}>{siteConfig.salesEmail}</a>.
            </p>
          ) : mayPayByInvoice({ edition: quote.edition, billingPeriod: quote.billingPeriod }) ? (
            <>
              <p>
                We e-mail a link to confirm the order to the billing address; once it is confirmed
                we send an invoice payable within 30 days, with your purchase-order reference on it,
                and the licence key.
              </p>
              <InvoiceCheckout
                edition={quote.edition}
                quantity={quote.quantity}
                selection={selection}
                quoteToken={token}
                initial={{
                  companyName: quote.companyName,
                  billingEmail: quote.buyerEmail,
                  vatId: quote.vatId ?? '',
                  addressLine: quote.address?.addressLine ?? '',
                  postalCode: quote.address?.postalCode ?? '',
                  city: quote.address?.city ?? '',
                  state: quote.address?.state ?? '',
                  country: quote.address?.country ?? '',
                  poReference: quote.purchaseOrder ?? '',
                }}
              />
            </>
          ) : (
            <p>
              Invoices are for yearly billing.{' '}
              <Link
                to={`${quotePath({ size: quote.quantity, billingPeriod: 'yearly', currency: quote.currency })}&modal=quote`}
              >
                Get a quote billed yearly
              </Link>{' '}
              to pay by invoice.
            </p>
          )}
        </li>
      </ul>
    </section>
  );
}

/**
 * An accepted quote: when, what it bought, and how — by invoice (which one) or paid by card
 * (decision 214); it is ordered once, so nothing is offered.
 */
function AcceptedNotice({ quote }: { quote: OpenQuote }) {
  const invoice = quote.accepted?.invoiceNumber;
  const on = quote.accepted?.on ?? quote.quoteDate;
  const plan = `${quote.planName}, quantity ${quote.quantity}, billed ${quote.billingPeriod}`;
  return (
    <div className={styles.expired}>
      {quote.accepted?.by === 'card' ? (
        <p>
          {`This quote was accepted and paid by card on ${on}: ${plan}.`} A quote is ordered once;
          the licence key and the receipt went to the e-mail address given at checkout.
        </p>
      ) : (
        <p>
          {`This quote was accepted on ${on}: ${plan}${invoice ? `, invoice ${invoice}` : ''}.`} A
          quote is ordered once; the licence key and the invoice went to the billing address of that
          order.
        </p>
      )}
      <Link to={newQuotePath(quote)} className="button button-secondary">
        Get a new quote
      </Link>
    </div>
  );
}

/** The page behind a quote's "Accept this quote" link. */
export function QuoteAcceptPanel({ quote, token }: { quote: QuoteSummary; token: string | null }) {
  if (quote.state === 'missing' || quote.state === 'invalid' || !token) {
    return (
      <div className={styles.panel}>
        <p>
          This link does not open a quote. Use the “Accept this quote” link in your quote or its
          e-mail, or get a new quote on the pricing page.
        </p>
        <Link to="/pricing" className="button button-secondary">
          Go to pricing
        </Link>
      </div>
    );
  }
  return (
    <div className={styles.panel}>
      <p className={styles.lead}>
        {quote.planName}, billed {quote.billingPeriod} in {quote.currency}
      </p>
      <QuoteFacts quote={quote} />
      {quote.state === 'open' ? (
        <AcceptOptions quote={quote} token={token} />
      ) : quote.state === 'accepted' ? (
        <AcceptedNotice quote={quote} />
      ) : (
        <div className={styles.expired}>
          <p>
            This quote expired on {quote.validUntil}; its prices no longer hold. Get a new quote for
            the same plan in a minute.
          </p>
          <Link to={newQuotePath(quote)} className="button button-primary">
            Get a new quote
          </Link>
        </div>
      )}
    </div>
  );
}
