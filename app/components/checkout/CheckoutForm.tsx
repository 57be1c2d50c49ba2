import { useId, useState, type FormEvent } from 'react';
import { useRouteLoaderData } from 'react-router';
import type { RootData } from '#app/root-data.ts';
import { isCountryCode } from '#shared/countries.ts';
import { buyerVatId } from '#shared/contracts/buyer-address.ts';
import { checkoutFormSchemas, type CheckoutRequestInput } from '#shared/contracts/checkout.ts';
import { billingErrorMessage } from '#shared/contracts/messages.ts';
import { formatCents, planName } from '#shared/pricing/index.ts';
import { decideVatBeforeVies, vatAmounts, vatIdProblem, vatLabel } from '#shared/pricing/vat.ts';
import { hasSubdivisions } from '#shared/subdivisions.ts';
import { BuyerFields } from '../forms/BuyerFields.tsx';
import { FormField } from '../forms/FormField.tsx';
import { FormFooter } from '../forms/FormFooter.tsx';
import { LicenceHolderField } from './LicenceHolderField.tsx';
import styles from '../forms/Forms.module.css';
import { useFormValues } from '../forms/use-form-values.ts';
import { useSubmission } from '../forms/use-submission.ts';
import { periodLabel } from '../pricing/period-label.ts';
import { quotePath } from '../pricing/price-selection.ts';
import { usePriceSelection } from '../pricing/use-price-selection.ts';
import { startCheckout } from './start-checkout.ts';

const empty = {
  companyName: '',
  addressLine: '',
  postalCode: '',
  city: '',
  state: '',
  country: '',
  vatId: '',
  licenceHolderEmail: '',
};

/**
 * The card checkout's first step (decision 219): the company the licence is for — the offer is
 * to businesses only — and, for Pro and Enterprise, its address and VAT ID, with net, VAT and
 * total by the one VAT rule as they are typed; then the provider's payment page, which shows the
 * same figures before anything is paid. Starter is free and asks only the company.
 */
export function CheckoutForm() {
  const accountApiUrl = useRouteLoaderData<RootData>('root')?.accountApiUrl ?? '';
  const { selection, calculation } = usePriceSelection();
  const ids = useId();
  const edition = calculation.info.edition;
  const free = calculation.isFree;
  const submission = useSubmission();
  const { isProcessing, resultIsSuccess, submit, resetResult } = submission;
  const form = useFormValues(
    free ? checkoutFormSchemas.free : checkoutFormSchemas.paid,
    empty,
    resetResult,
  );
  const { values, field } = form;
  const [trialKey, setTrialKey] = useState('');
  const typedVatId = values.vatId.trim() ? buyerVatId(values) : undefined;
  const vatProblem =
    !free && isCountryCode(values.country) ? vatIdProblem(values.country, typedVatId) : null;
  const invalid = form.invalid || vatProblem !== null;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (invalid || isProcessing || resultIsSuccess) return;
    const origin = window.location.origin;
    const buyer = free
      ? { companyName: values.companyName }
      : {
          ...values,
          state: hasSubdivisions(values.country) ? values.state : undefined,
          vatId: values.vatId.trim() || undefined,
          licenceHolderEmail: values.licenceHolderEmail.trim() || undefined,
        };
    const request: CheckoutRequestInput = {
      edition,
      quantity: selection.size,
      billingPeriod: selection.billingPeriod,
      billingCurrency: selection.currency,
      trialLicenseKeyToConvert: trialKey.trim() || undefined,
      successUrl: `${origin}/checkout-success?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${origin}${quotePath(selection)}`,
      ...buyer,
    };
    void submit(async (signal) => {
      const started = await startCheckout(accountApiUrl, request, signal);
      // Success leaves the page: keep "processing" until it has gone.
      if (started.ok) return new Promise<never>(() => undefined);
      return started;
    }, billingErrorMessage(undefined));
  };

  const net = calculation.selected.total * 100;
  const period = periodLabel(selection.billingPeriod);
  const decision =
    !free && isCountryCode(values.country) && vatProblem === null
      ? decideVatBeforeVies({ country: values.country, vatId: typedVatId })
      : null;
  const amounts = decision ? vatAmounts(net, decision) : null;
  const money = (cents: number) => formatCents(cents, selection.currency);

  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate aria-label="Checkout">
      <p className={styles.intro}>
        <strong>{planName(edition, selection.size)}</strong>
        {free ? '' : `, billed ${selection.billingPeriod} in ${selection.currency}`}. Orgsmith is
        sold to businesses only: the licence is for the company named here (see the{' '}
        <a href="/eula/cli">licence terms</a>).
      </p>
      {free ? (
        <p className={styles.note}>
          Starter is free: nothing is charged, now or later, no card is needed and no VAT applies.
        </p>
      ) : (
        <>
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
        </>
      )}
      {free ? (
        <FormField
          {...field('companyName')}
          label="Company name"
          maxLength={200}
          autoComplete="organization"
        />
      ) : (
        <BuyerFields
          fields={{
            companyName: field('companyName'),
            addressLine: field('addressLine'),
            postalCode: field('postalCode'),
            city: field('city'),
            state: field('state'),
            country: field('country'),
            vatId: field('vatId'),
          }}
          vatProblem={vatProblem}
          limits={{ companyName: 200 }}
        />
      )}
      {free ? null : <LicenceHolderField field={field('licenceHolderEmail')} />}
      <details className={styles.note}>
        <summary>Converting a trial?</summary>
        <FormField
          name="trialKey"
          value={trialKey}
          onChange={(value) => {
            setTrialKey(value);
            resetResult();
          }}
          error={undefined}
          showError={false}
          label="Trial licence key"
          optional
          maxLength={100}
          autoComplete="off"
          placeholder="ORGS-XXXX-XXXX-…"
          hint="Your trial keeps its key. Without it, the licence e-mail to your trial’s address lets you keep the trial key."
        />
      </details>
      <p id={`${ids}-next`} className={styles.note}>
        {free
          ? 'Next: your e-mail address, and the licence key is on its way.'
          : 'Next: your e-mail address and card on the payment page, which shows these amounts again before you pay.'}
      </p>
      <FormFooter
        submission={submission}
        successMessage={null}
        invalid={invalid}
        submitLabel={free ? 'Continue' : 'Continue to payment'}
      />
    </form>
  );
}
