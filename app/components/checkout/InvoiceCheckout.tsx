import { useState, useSyncExternalStore, type FormEvent } from 'react';
import { useRouteLoaderData } from 'react-router';
import { buyerVatId } from '#shared/contracts/buyer-address.ts';
import {
  invoiceCheckoutFormSchema,
  invoiceCheckoutLimits,
  type InvoiceCheckoutRequestInput,
} from '#shared/contracts/invoice-checkout.ts';
import {
  invoiceOrderErrorMessage,
  invoiceOrderMessages,
} from '#shared/contracts/invoice-order-messages.ts';
import { isCountryCode } from '#shared/countries.ts';
import type { Edition, PriceSelection } from '#shared/pricing/index.ts';
import { decideVatBeforeVies, vatIdProblem } from '#shared/pricing/vat.ts';
import type { RootData } from '#app/root-data.ts';
import { BuyerFields } from '../forms/BuyerFields.tsx';
import { placeInvoiceOrder } from './place-invoice-order.ts';
import { FormFooter } from '../forms/FormFooter.tsx';
import { LicenceHolderField } from './LicenceHolderField.tsx';
import { SuccessView } from '../forms/SuccessView.tsx';
import formStyles from '../forms/Forms.module.css';
import { useFormValues } from '../forms/use-form-values.ts';
import { useSubmission } from '../forms/use-submission.ts';
import styles from './InvoiceCheckout.module.css';

const empty = {
  companyName: '',
  billingEmail: '',
  addressLine: '',
  postalCode: '',
  city: '',
  state: '',
  country: '',
  vatId: '',
  poReference: '',
  licenceHolderEmail: '',
};
export type InvoiceFieldName = keyof typeof empty;

export interface InvoiceCheckoutProps {
  edition: Edition;
  quantity: number;
  selection: PriceSelection;
  /** Start values, e.g. the buyer's details from the quote this order accepts. */
  initial?: Partial<Record<InvoiceFieldName, string>>;
  /** The token of the accept link of the quote this order accepts (decision 154). */
  quoteToken?: string;
}

const noSubscription = () => () => undefined;

/**
 * The "Pay by invoice (net 30)" form of a quote's accept page (decisions 144, 154): the company's
 * billing details, started from the quote, checked as the visitor types with the service's own
 * rules and the same fields as the quote dialog (`BuyerFields`); the account service e-mails a
 * link to confirm the order to the billing address, and the invoice and the licence follow the
 * confirmation (decision 153).
 */
export function InvoiceCheckout({
  edition,
  quantity,
  selection,
  initial,
  quoteToken,
}: InvoiceCheckoutProps) {
  const accountApiUrl = useRouteLoaderData<RootData>('root')?.accountApiUrl ?? '';
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const submission = useSubmission();
  const { isProcessing, resultIsSuccess, submit, resetResult } = submission;
  const form = useFormValues(invoiceCheckoutFormSchema, { ...empty, ...initial }, resetResult);
  const { values, field } = form;
  const typedVatId = values.vatId.trim() ? buyerVatId(values) : undefined;
  const vatProblem = isCountryCode(values.country)
    ? vatIdProblem(values.country, typedVatId)
    : null;
  const invalid = !hydrated || form.invalid || vatProblem !== null;
  // What the invoice will charge for this country and VAT ID, in the VAT rule's words.
  const vatNote =
    isCountryCode(values.country) && vatProblem === null
      ? decideVatBeforeVies({ country: values.country, vatId: typedVatId }).note
      : null;
  /** Where the service sent the link to confirm the order, once it did. */
  const [placedFor, setPlacedFor] = useState<string | null>(null);

  // The form gives way to a success view that is brought into sight and focused (decision 218):
  // on a phone the shorter page would otherwise leave it above the screen, and the buyer, seeing
  // the footer, might order again.
  if (resultIsSuccess && placedFor) {
    return (
      <SuccessView
        title="Check your inbox"
        headingLevel={4}
        message={invoiceOrderMessages.checkInbox(placedFor)}
        next="open the link in that e-mail and confirm the order."
      />
    );
  }

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (invalid || isProcessing) return;
    const request: InvoiceCheckoutRequestInput = {
      edition,
      quantity,
      billingPeriod: selection.billingPeriod,
      billingCurrency: selection.currency,
      ...values,
      licenceHolderEmail: values.licenceHolderEmail.trim() || undefined,
      ...(quoteToken ? { quoteToken } : {}),
    };
    void submit(async (signal) => {
      const placed = await placeInvoiceOrder(accountApiUrl, request, signal);
      if (!placed.ok) return placed;
      setPlacedFor(placed.billingEmail);
      return { ok: true };
    }, invoiceOrderErrorMessage(undefined));
  };

  return (
    <form
      className={`${formStyles.form} ${styles.invoice}`}
      onSubmit={onSubmit}
      noValidate
      aria-label={`Pay ${edition} by invoice`}
    >
      <BuyerFields
        fields={{
          companyName: field('companyName'),
          email: field('billingEmail'),
          addressLine: field('addressLine'),
          postalCode: field('postalCode'),
          city: field('city'),
          state: field('state'),
          country: field('country'),
          vatId: field('vatId'),
          purchaseOrder: field('poReference'),
        }}
        emailHint="We send a link to confirm the order here, then the invoice and the licence key."
        vatProblem={vatProblem}
        limits={invoiceCheckoutLimits}
      />
      <LicenceHolderField field={field('licenceHolderEmail')} />
      {vatNote ? <p className={formStyles.note}>{vatNote}</p> : null}
      <FormFooter
        submission={submission}
        successMessage={null}
        invalid={invalid}
        submitLabel={`Order ${edition} and send the invoice`}
      />
    </form>
  );
}
