import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import * as z from 'zod/mini';
import { useRouteLoaderData } from 'react-router';
import { apiFetch, readErrorCode } from '#app/http/api-fetch.ts';
import type { RootData } from '#app/root-data.ts';
import { isCountryCode } from '#shared/countries.ts';
import { buyerVatId } from '#shared/contracts/buyer-address.ts';
import { type InvoiceCheckoutRequestInput } from '#shared/contracts/invoice-checkout.ts';
import { licenceHolderEmailField } from '#shared/contracts/licence-holder.ts';
import {
  invoiceOrderErrorMessage,
  invoiceOrderMessages,
} from '#shared/contracts/invoice-order-messages.ts';
import { quoteErrorMessage, quoteSuccessMessage } from '#shared/contracts/messages.ts';
import {
  quoteFormSchema,
  quoteLimits,
  quoteResponseSchema,
  type QuoteRequestInput,
  type QuoteResponse,
} from '#shared/contracts/quotes.ts';
import { formatCents, mayPayByInvoice, planName } from '#shared/pricing/index.ts';
import { decideVatBeforeVies, vatAmounts, vatIdProblem, vatLabel } from '#shared/pricing/vat.ts';
import { siteConfig } from '#shared/site-config.ts';
import { periodLabel } from '../pricing/period-label.ts';
import { usePriceSelection } from '../pricing/use-price-selection.ts';
import { placeInvoiceOrder } from '../checkout/place-invoice-order.ts';
import { LicenceHolderField } from '../checkout/LicenceHolderField.tsx';
import { BuyerFields } from './BuyerFields.tsx';
import { FormFooter } from './FormFooter.tsx';
import styles from './Forms.module.css';
import { useFormValues } from './use-form-values.ts';
import { useSubmission } from './use-submission.ts';

const empty = {
  companyName: '',
  emailAddress: '',
  addressLine: '',
  postalCode: '',
  city: '',
  state: '',
  country: '',
  vatId: '',
  purchaseOrder: '',
};

type Choice = 'quote' | 'invoice';

const holderSchema = z.object({ licenceHolderEmail: licenceHolderEmailField });

type Done =
  | { kind: 'quote'; quote: QuoteResponse; email: string }
  | { kind: 'invoice'; billingEmail: string };

/**
 * "Buying for a company? Get a quote or pay by invoice" (decision 179): the company's details,
 * structured as an invoice prints them, entered once; then a quote (PDF now, accept later) or an
 * order by invoice (yearly only, decision 144). The plan, size, period and currency come from the
 * pricing selection in the URL; the totals follow the VAT rule (decision 177) as the visitor
 * types. On success a view of its own replaces the form and names the next step.
 */
export function QuoteForm() {
  const root = useRouteLoaderData<RootData>('root');
  const accountApiUrl = root?.accountApiUrl ?? '';
  const { selection, calculation } = usePriceSelection();
  const ids = useId();
  const [choice, setChoice] = useState<Choice>('quote');
  const [done, setDone] = useState<Done | null>(null);
  const submission = useSubmission();
  const { isProcessing, resultIsSuccess, submit, resetResult } = submission;
  const form = useFormValues(quoteFormSchema, empty, resetResult);
  const { values, field } = form;
  // Asked only for an order by invoice (decision 223): a quote names no licence holder.
  const holder = useFormValues(holderSchema, { licenceHolderEmail: '' }, resetResult);
  const edition = calculation.info.edition;
  const yearlyPlan = mayPayByInvoice({ edition, billingPeriod: selection.billingPeriod });
  // No bank account in the currency, no invoice in it (decision 218).
  const currencyOffered = root?.invoiceCurrencies.includes(selection.currency) ?? false;
  const invoiceable = yearlyPlan && currencyOffered;
  const chosen: Choice = invoiceable ? choice : 'quote';
  // zod runs the VAT ID's check against the country only once every field is valid: the form
  // asks the rule itself, so the message shows as soon as both are filled in.
  const typedVatId = values.vatId.trim() ? buyerVatId(values) : undefined;
  const vatProblem = isCountryCode(values.country)
    ? vatIdProblem(values.country, typedVatId)
    : null;
  const invalid =
    form.invalid ||
    vatProblem !== null ||
    edition === 'Starter' ||
    (chosen === 'invoice' && holder.invalid);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (invalid || isProcessing || resultIsSuccess) return;
    const order = {
      edition,
      quantity: selection.size,
      billingPeriod: selection.billingPeriod,
      billingCurrency: selection.currency,
    };
    if (chosen === 'quote') {
      const request: QuoteRequestInput = { ...values, ...order };
      void submit(async (signal) => {
        const response = await apiFetch(`${accountApiUrl}/account/v1/quotes`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(request),
          trustedBase: accountApiUrl,
          signal,
        });
        if (!response.ok) {
          return { ok: false, message: quoteErrorMessage(await readErrorCode(response)) };
        }
        const body = quoteResponseSchema.safeParse(await response.json());
        if (!body.success) return { ok: false, message: quoteErrorMessage(undefined) };
        setDone({ kind: 'quote', quote: body.data, email: values.emailAddress.trim() });
        return { ok: true };
      }, quoteErrorMessage(undefined));
      return;
    }
    const { emailAddress, purchaseOrder, ...details } = values;
    const request: InvoiceCheckoutRequestInput = {
      ...order,
      ...details,
      billingEmail: emailAddress,
      poReference: purchaseOrder,
      licenceHolderEmail: holder.values.licenceHolderEmail.trim() || undefined,
    };
    void submit(async (signal) => {
      const placed = await placeInvoiceOrder(accountApiUrl, request, signal);
      if (!placed.ok) return placed;
      setDone({ kind: 'invoice', billingEmail: placed.billingEmail });
      return { ok: true };
    }, invoiceOrderErrorMessage(undefined));
  };

  if (edition === 'Starter') {
    return (
      <p className={styles.intro}>
        Starter is free: there is nothing to quote or invoice. Choose Pro or Enterprise on the
        pricing page to get a quote or pay by invoice.
      </p>
    );
  }

  if (done) return <SuccessView done={done} />;

  const net = calculation.selected.total * 100;
  const period = periodLabel(selection.billingPeriod);
  const decision =
    isCountryCode(values.country) && vatProblem === null
      ? decideVatBeforeVies({ country: values.country, vatId: typedVatId })
      : null;
  const amounts = decision ? vatAmounts(net, decision) : null;
  const money = (cents: number) => formatCents(cents, selection.currency);

  return (
    <form
      className={styles.form}
      onSubmit={onSubmit}
      noValidate
      aria-label="Get a quote or pay by invoice"
    >
      <p className={styles.intro}>
        <strong>{planName(edition, selection.size)}</strong>, billed {selection.billingPeriod} in{' '}
        {selection.currency}. Change the plan, size, period or currency on the pricing page.
      </p>
      <dl className={styles.totals} aria-label="Price">
        <div>
          <dt>Net {period}</dt>
          <dd>{money(net)}</dd>
        </div>
        <div>
          <dt>{decision ? vatLabel(decision) : 'VAT'}</dt>
          <dd>{amounts ? money(amounts.vatMinor) : 'by country'}</dd>
        </div>
        <div className={styles.totalsGross}>
          <dt>Total {period}</dt>
          <dd>{amounts ? money(amounts.grossMinor) : '—'}</dd>
        </div>
      </dl>
      {decision?.note ? <p className={styles.note}>{decision.note}</p> : null}
      <BuyerFields
        fields={{
          companyName: field('companyName'),
          email: field('emailAddress'),
          addressLine: field('addressLine'),
          postalCode: field('postalCode'),
          city: field('city'),
          state: field('state'),
          country: field('country'),
          vatId: field('vatId'),
          purchaseOrder: field('purchaseOrder'),
        }}
        emailHint="The quote, or the link to confirm the order, goes here."
        vatProblem={vatProblem}
        limits={quoteLimits}
      />
      <fieldset className={styles.choice}>
        <legend className={styles.label}>What do you need?</legend>
        <label>
          <input
            type="radio"
            name="choice"
            value="quote"
            checked={chosen === 'quote'}
            onChange={() => {
              setChoice('quote');
              resetResult();
            }}
          />{' '}
          A quote: the PDF now, accept it later
        </label>
        <label>
          <input
            type="radio"
            name="choice"
            value="invoice"
            checked={chosen === 'invoice'}
            disabled={!invoiceable}
            aria-describedby={invoiceable ? undefined : `${ids}-invoice-hint`}
            onChange={() => {
              setChoice('invoice');
              resetResult();
            }}
          />{' '}
          An order paid by invoice (net 30)
        </label>
        {invoiceable ? null : (
          <p id={`${ids}-invoice-hint`} className={styles.note}>
            {yearlyPlan
              ? `Pay by invoice is not offered in ${selection.currency}: pay by card, or get a quote.`
              : 'Pay by invoice is offered for yearly billing: switch to yearly on the pricing page.'}
          </p>
        )}
      </fieldset>
      {chosen === 'invoice' ? (
        <LicenceHolderField field={holder.field('licenceHolderEmail')} />
      ) : null}
      <FormFooter
        submission={submission}
        successMessage={null}
        invalid={invalid}
        submitLabel={chosen === 'quote' ? 'Get the quote' : `Order ${edition} by invoice`}
      />
    </form>
  );
}

/** What replaces the form once it went through: what happened, and the next step. */
function SuccessView({ done }: { done: Done }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  if (done.kind === 'quote') {
    const { quote } = done;
    return (
      <section className={styles.success} aria-labelledby="company-success">
        <h3 id="company-success" ref={heading} tabIndex={-1}>
          Quote {quote.number} is ready
        </h3>
        <p role="status">{quoteSuccessMessage(quote.number, done.email)}</p>
        <p className={styles.successLinks}>
          <a
            href={quote.downloadUrl}
            download={`${quote.number}.pdf`}
            className="button button-primary button-sm"
          >
            Download {quote.number} (PDF)
          </a>
        </p>
        <p className={styles.note}>
          Next: pass the PDF on for approval. To buy, open{' '}
          <a href={quote.acceptUrl}>Accept this quote</a> (also in the e-mail) before it expires and
          pay by card or by invoice. Questions: {siteConfig.salesEmail}.
        </p>
      </section>
    );
  }
  return (
    <section className={styles.success} aria-labelledby="company-success">
      <h3 id="company-success" ref={heading} tabIndex={-1}>
        Confirm your order in your inbox
      </h3>
      <p role="status">{invoiceOrderMessages.checkInbox(done.billingEmail)}</p>
      <p className={styles.note}>
        Next: open the link in that e-mail and confirm. The invoice and the licence key follow.
      </p>
    </section>
  );
}
