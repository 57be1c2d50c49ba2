import { useId, useState, useSyncExternalStore } from 'react';
import { useRouteLoaderData } from 'react-router';
import type {
  InvoiceCheckoutRequestInput,
  InvoiceOrderPlaced,
} from '#shared/contracts/invoice-checkout.ts';
import {
  invoiceOrderErrorMessage,
  invoiceOrderMessages,
} from '#shared/contracts/invoice-order-messages.ts';
import type { Edition, PriceSelection } from '#shared/pricing/index.ts';
import { apiFetch, readErrorCode } from '#app/http/api-fetch.ts';
import type { RootData } from '#app/root-data.ts';
import { countriesByName } from '#shared/countries.ts';
import { Alert } from '../ui/Alert.tsx';
import styles from './InvoiceCheckout.module.css';

export interface InvoiceCheckoutProps {
  edition: Edition;
  quantity: number;
  selection: PriceSelection;
  /** Start values, e.g. the buyer's details from the quote this order accepts. */
  initial?: Partial<Record<InvoiceFieldName, string>>;
  /** The token of the accept link of the quote this order accepts (decision 154). */
  quoteToken?: string;
}

const fieldNames = [
  'companyName',
  'billingEmail',
  'addressLine',
  'postalCode',
  'city',
  'country',
  'vatId',
  'poReference',
] as const;
export type InvoiceFieldName = (typeof fieldNames)[number];
type FieldName = InvoiceFieldName;

const fieldLabels: Record<FieldName, { label: string; hint?: string; autoComplete: string }> = {
  companyName: { label: 'Company name', autoComplete: 'organization' },
  billingEmail: {
    label: 'Billing email address',
    hint: 'We send a link to confirm the order here, then the invoice and the licence key.',
    autoComplete: 'email',
  },
  addressLine: { label: 'Street and number', autoComplete: 'address-line1' },
  postalCode: { label: 'Postal code', autoComplete: 'postal-code' },
  city: { label: 'City', autoComplete: 'address-level2' },
  country: { label: 'Country', autoComplete: 'country' },
  vatId: { label: 'VAT ID (optional)', hint: 'e.g. DE123456789', autoComplete: 'off' },
  poReference: { label: 'Purchase order (optional)', autoComplete: 'off' },
};

const required = new Set<FieldName>([
  'companyName',
  'billingEmail',
  'addressLine',
  'postalCode',
  'city',
  'country',
]);
const noSubscription = () => () => undefined;

function isFieldName(value: string): value is FieldName {
  return fieldNames.some((name) => name === value);
}

function isPlaced(value: unknown): value is InvoiceOrderPlaced {
  return (
    typeof value === 'object' &&
    value !== null &&
    'status' in value &&
    value.status === 'confirmation-sent' &&
    'billingEmail' in value &&
    typeof value.billingEmail === 'string'
  );
}

/** The 400 answer's field issues, by field of this form. */
async function readIssues(response: Response): Promise<Partial<Record<FieldName, string>>> {
  const issues: Partial<Record<FieldName, string>> = {};
  const body: unknown = await response.json().catch(() => null);
  if (typeof body !== 'object' || body === null || !('issues' in body)) return issues;
  if (!Array.isArray(body.issues)) return issues;
  for (const issue of body.issues) {
    if (typeof issue !== 'object' || issue === null) continue;
    const field = 'field' in issue && typeof issue.field === 'string' ? issue.field : '';
    const message = 'message' in issue && typeof issue.message === 'string' ? issue.message : '';
    if (isFieldName(field) && message && !issues[field]) issues[field] = message;
  }
  return issues;
}

/**
 * The "Pay by invoice (net 30)" form for yearly Pro and Enterprise (decision 144): the company's
 * billing details go to the account service, which e-mails a link to confirm the order to the
 * billing address; the invoice and the licence follow the confirmation (decision 153).
 * A plain group, not a form: the plan cards sit inside the selector's own GET form.
 */
export function InvoiceCheckout({
  edition,
  quantity,
  selection,
  initial,
  quoteToken,
}: InvoiceCheckoutProps) {
  const root = useRouteLoaderData<RootData>('root');
  const accountApiUrl = root?.accountApiUrl ?? '';
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const ids = useId();
  const [values, setValues] = useState<Record<FieldName, string>>({
    companyName: '',
    billingEmail: '',
    addressLine: '',
    postalCode: '',
    city: '',
    country: '',
    vatId: '',
    poReference: '',
    ...initial,
  });
  const [issues, setIssues] = useState<Partial<Record<FieldName, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [processing, setProcessing] = useState(false);
  const [order, setOrder] = useState<InvoiceOrderPlaced | null>(null);

  async function submit() {
    if (processing) return;
    setError(null);
    setIssues({});
    setProcessing(true);
    const request: InvoiceCheckoutRequestInput = {
      edition,
      quantity,
      billingPeriod: selection.billingPeriod,
      billingCurrency: selection.currency,
      ...values,
      ...(quoteToken ? { quoteToken } : {}),
    };
    try {
      const response = await apiFetch(`${accountApiUrl}/account/v1/checkout/invoice`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(request),
        trustedBase: accountApiUrl,
      });
      if (response.status === 201) {
        const body: unknown = await response.json();
        if (isPlaced(body)) setOrder(body);
        else setError(invoiceOrderErrorMessage(undefined));
      } else if (response.status === 400) {
        const found = await readIssues(response);
        setIssues(found);
        if (Object.keys(found).length === 0) setError(invoiceOrderErrorMessage(undefined));
      } else {
        setError(invoiceOrderErrorMessage(await readErrorCode(response)));
      }
    } catch {
      setError(invoiceOrderErrorMessage(undefined));
    }
    setProcessing(false);
  }

  if (order) {
    return (
      <div className={styles.confirmation}>
        <Alert tone="success">{invoiceOrderMessages.checkInbox(order.billingEmail)}</Alert>
      </div>
    );
  }

  const fields = (
    <div className={styles.fields} role="group" aria-label={`Pay ${edition} by invoice`}>
      {fieldNames.map((name) => {
        const id = `${ids}-${name}`;
        const field = fieldLabels[name];
        const issue = issues[name];
        const describedBy = [field.hint ? `${id}-hint` : '', issue ? `${id}-error` : '']
          .filter(Boolean)
          .join(' ');
        return (
          <div className={styles.field} key={name}>
            <label className={styles.label} htmlFor={id}>
              {field.label}
            </label>
            {field.hint && (
              <span className={styles.hint} id={`${id}-hint`}>
                {field.hint}
              </span>
            )}
            {name === 'country' ? (
              <select
                id={id}
                className={styles.input}
                value={values.country}
                aria-required
                autoComplete={field.autoComplete}
                aria-invalid={issue ? true : undefined}
                aria-describedby={describedBy || undefined}
                onChange={(event) => setValues({ ...values, country: event.target.value })}
              >
                <option value="">Choose…</option>
                {countriesByName.map((country) => (
                  <option key={country.code} value={country.code}>
                    {country.name}
                  </option>
                ))}
              </select>
            ) : (
              <input
                id={id}
                className={styles.input}
                type={name === 'billingEmail' ? 'email' : 'text'}
                value={values[name]}
                // Not `required`: these inputs sit inside the selector's form and would block it.
                aria-required={required.has(name) || undefined}
                autoComplete={field.autoComplete}
                aria-invalid={issue ? true : undefined}
                aria-describedby={describedBy || undefined}
                onChange={(event) => setValues({ ...values, [name]: event.target.value })}
                onKeyDown={(event) => {
                  // Enter would submit the selector's form; here it places the order.
                  if (event.key === 'Enter') {
                    event.preventDefault();
                    void submit();
                  }
                }}
              />
            )}
            {issue && (
              <span className={styles.error} id={`${id}-error`}>
                {issue}
              </span>
            )}
          </div>
        );
      })}
      <button
        type="button"
        className="button button-primary"
        onClick={() => void submit()}
        disabled={!hydrated || processing}
        aria-busy={processing}
      >
        {processing ? 'Sending the link…' : `Order ${edition} and send the invoice`}
      </button>
      {error && <Alert tone="danger">{error}</Alert>}
    </div>
  );
  // On the quote's accept page it stands open under its own heading.
  return <div className={styles.invoice}>{fields}</div>;
}
