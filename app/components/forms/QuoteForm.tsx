import { useState, type FormEvent } from 'react';
import { useRouteLoaderData } from 'react-router';
import { apiFetch, readErrorCode } from '#app/http/api-fetch.ts';
import type { RootData } from '#app/root-data.ts';
import { quoteErrorMessage, quoteSuccessMessage } from '#shared/contracts/messages.ts';
import {
  quoteFormSchema,
  quoteLimits,
  type QuoteRequestInput,
  type QuoteResponse,
} from '#shared/contracts/quotes.ts';
import { formatPrice, planName } from '#shared/pricing/index.ts';
import { periodLabel } from '../pricing/period-label.ts';
import { usePriceSelection } from '../pricing/use-price-selection.ts';
import { FormField } from './FormField.tsx';
import { FormFooter } from './FormFooter.tsx';
import styles from './Forms.module.css';
import { useFormValues } from './use-form-values.ts';
import { useSubmission } from './use-submission.ts';

const empty = {
  companyName: '',
  emailAddress: '',
  billingAddress: '',
  vatId: '',
  purchaseOrder: '',
};

function isQuoteResponse(value: unknown): value is QuoteResponse {
  return (
    typeof value === 'object' &&
    value !== null &&
    'number' in value &&
    typeof value.number === 'string' &&
    'downloadUrl' in value &&
    typeof value.downloadUrl === 'string' &&
    'acceptUrl' in value &&
    typeof value.acceptUrl === 'string'
  );
}

/**
 * The "Get a quote" dialog's form (decision 142): the buyer's details here, the plan, size,
 * period and currency from the pricing selection in the URL. POST /account/v1/quotes answers with
 * the quote's PDF link, which the success alert offers at once; the e-mail carries it too.
 */
export function QuoteForm() {
  const accountApiUrl = useRouteLoaderData<RootData>('root')?.accountApiUrl ?? '';
  const { selection, calculation } = usePriceSelection();
  const [quote, setQuote] = useState<QuoteResponse | null>(null);
  const submission = useSubmission();
  const { isProcessing, resultIsSuccess, submit, resetResult } = submission;
  const form = useFormValues(quoteFormSchema, empty, resetResult);
  const { values, field } = form;
  const edition = calculation.info.edition;
  const invalid = form.invalid || edition === 'Starter';

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (invalid || isProcessing || resultIsSuccess) return;
    const request: QuoteRequestInput = {
      ...values,
      edition,
      quantity: selection.size,
      billingPeriod: selection.billingPeriod,
      billingCurrency: selection.currency,
    };
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
      const body: unknown = await response.json();
      if (!isQuoteResponse(body)) return { ok: false, message: quoteErrorMessage(undefined) };
      setQuote(body);
      return { ok: true };
    }, quoteErrorMessage(undefined));
  };

  if (edition === 'Starter') {
    return (
      <p className={styles.intro}>
        Starter is free: there is nothing to quote. Choose Pro or Enterprise on the pricing page to
        get a quote.
      </p>
    );
  }

  const price = `${formatPrice(calculation.selected.total, selection.currency)} ${periodLabel(selection.billingPeriod)}`;
  const success = quote ? (
    <>
      <p className={styles.successText}>
        {quoteSuccessMessage(quote.number, values.emailAddress.trim())}
      </p>
      <p className={styles.successLinks}>
        <a
          href={quote.downloadUrl}
          download={`${quote.number}.pdf`}
          className="button button-primary button-sm"
        >
          Download {quote.number} (PDF)
        </a>
        <a href={quote.acceptUrl} className="button button-secondary button-sm">
          Accept this quote
        </a>
      </p>
    </>
  ) : null;
  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate aria-label="Get a quote">
      <p className={styles.intro}>
        A PDF quote for <strong>{planName(edition, selection.size)}</strong>, billed{' '}
        {selection.billingPeriod} in {selection.currency}: <strong>{price}</strong>, plus local tax.
        Valid for 30 days.
      </p>
      <FormField
        {...field('companyName')}
        label="Company name"
        maxLength={quoteLimits.companyName}
        autoComplete="organization"
      />
      <FormField
        {...field('emailAddress')}
        label="Email address"
        type="email"
        maxLength={254}
        autoComplete="email"
        hint="We send the quote here too."
      />
      <FormField
        {...field('billingAddress')}
        label="Billing address"
        optional
        multiline
        maxLength={quoteLimits.billingAddress}
        autoComplete="street-address"
      />
      <div className={styles.pair}>
        <FormField
          {...field('vatId')}
          label="VAT ID"
          optional
          maxLength={quoteLimits.vatIdInput}
          autoComplete="off"
          placeholder="e.g. FR40303265045"
        />
        <FormField
          {...field('purchaseOrder')}
          label="Purchase order"
          optional
          maxLength={quoteLimits.purchaseOrder}
          autoComplete="off"
        />
      </div>
      <p className={styles.note}>
        Change the plan, size, billing period or currency on the pricing page; the quote follows
        them.
      </p>
      <FormFooter
        submission={submission}
        successMessage={success}
        invalid={invalid}
        submitLabel="Get the quote"
      />
    </form>
  );
}
