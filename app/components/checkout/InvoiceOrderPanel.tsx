import { useState } from 'react';
import { Link, useRouteLoaderData } from 'react-router';
import {
  CANCEL_INVOICE_ORDER_PATH,
  CONFIRM_INVOICE_ORDER_PATH,
  invoiceCheckoutResponseSchema,
  invoiceOrderInReviewSchema,
  type InvoiceCheckoutResponse,
  type InvoiceOrderLinkStatus,
} from '#shared/contracts/invoice-checkout.ts';
import {
  invoiceOrderErrorMessage,
  invoiceOrderMessages,
} from '#shared/contracts/invoice-order-messages.ts';
import { formatCents } from '#shared/pricing/index.ts';
import { apiFetch, readErrorCode } from '#app/http/api-fetch.ts';
import type { RootData } from '#app/root-data.ts';
import { Alert } from '../ui/Alert.tsx';
import styles from './InvoiceOrderPanel.module.css';

type State =
  | { kind: 'idle' }
  | { kind: 'busy' }
  | { kind: 'confirmed'; order: InvoiceCheckoutResponse }
  | { kind: 'in-review'; message: string }
  | { kind: 'cancelled' }
  | { kind: 'gone' }
  | { kind: 'error'; message: string };

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' });

/** The confirmed order: where the key went, the invoice, its amount and due date. */
function Confirmed({ order }: { order: InvoiceCheckoutResponse }) {
  return (
    <div className={styles.panel}>
      <Alert tone="success">
        Thank you. Your licence key is on its way to <strong>{order.licenceEmail}</strong>.{' '}
        {order.invoiceEmailedTo ? (
          <>
            The invoice was e-mailed to <strong>{order.invoiceEmailedTo}</strong>.
          </>
        ) : (
          'The invoice was not e-mailed: open it below and keep it.'
        )}
      </Alert>
      <dl className={styles.facts}>
        <dt>Invoice</dt>
        <dd>{order.invoiceNumber}</dd>
        <dt>Amount due</dt>
        <dd>
          {formatCents(order.amountDue, order.currency)} (net{' '}
          {formatCents(order.amountNet, order.currency)}, VAT{' '}
          {formatCents(order.amountVat, order.currency)})
        </dd>
        <dt>Due date</dt>
        <dd>{dateFormat.format(new Date(order.dueAt))}</dd>
      </dl>
      <p>
        <a className="button button-secondary" href={order.invoiceUrl}>
          View invoice {order.invoiceNumber}
        </a>
      </p>
    </div>
  );
}

function ToPricing({ text }: { text: string }) {
  return (
    <div className={styles.panel}>
      <Alert tone="info">{text}</Alert>
      <p>
        <Link to="/pricing" className="button button-secondary">
          Go to pricing
        </Link>
      </p>
    </div>
  );
}

/**
 * The page behind an invoice order's confirmation link (decision 153): the order as typed, and
 * two buttons — only they use the link (POST), so mail scanners that open it change nothing.
 */
export function InvoiceOrderPanel({
  status,
  token,
}: {
  status: InvoiceOrderLinkStatus;
  token: string | null;
}) {
  const root = useRouteLoaderData<RootData>('root');
  const accountApiUrl = root?.accountApiUrl ?? '';
  const [state, setState] = useState<State>({ kind: 'idle' });

  if (state.kind === 'confirmed') return <Confirmed order={state.order} />;
  if (state.kind === 'in-review') {
    return (
      <div className={styles.panel}>
        <Alert tone="success">{state.message}</Alert>
      </div>
    );
  }
  if (state.kind === 'cancelled') return <ToPricing text={invoiceOrderMessages.cancelled} />;
  if (status.state === 'missing' || !token)
    return <ToPricing text={invoiceOrderMessages.missing} />;
  if (status.state === 'invalid' || state.kind === 'gone') {
    return <ToPricing text={invoiceOrderMessages.linkInvalid} />;
  }

  async function send(path: string, linkToken: string) {
    setState({ kind: 'busy' });
    try {
      const response = await apiFetch(`${accountApiUrl}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token: linkToken }),
        trustedBase: accountApiUrl,
      });
      if (response.status === 204) return setState({ kind: 'cancelled' });
      if (response.status === 200) {
        const body = invoiceCheckoutResponseSchema.safeParse(await response.json());
        return setState(
          body.success
            ? { kind: 'confirmed', order: body.data }
            : { kind: 'error', message: invoiceOrderErrorMessage(undefined) },
        );
      }
      // Confirmed, waiting for finance (decision 230): the service words it, with the day.
      if (response.status === 202) {
        const body = invoiceOrderInReviewSchema.safeParse(await response.json());
        return setState(
          body.success
            ? { kind: 'in-review', message: body.data.message }
            : { kind: 'error', message: invoiceOrderErrorMessage(undefined) },
        );
      }
      if (response.status === 410) return setState({ kind: 'gone' });
      setState({ kind: 'error', message: invoiceOrderErrorMessage(await readErrorCode(response)) });
    } catch {
      setState({ kind: 'error', message: invoiceOrderErrorMessage(undefined) });
    }
  }

  const busy = state.kind === 'busy';
  return (
    <div className={styles.panel}>
      <p>{invoiceOrderMessages.intro}</p>
      <dl className={styles.facts}>
        <dt>Plan</dt>
        <dd>{status.planName}</dd>
        <dt>Billing</dt>
        <dd>
          {status.billingPeriod}, in {status.currency}, net 30
        </dd>
        <dt>Total (gross)</dt>
        <dd>{formatCents(status.amount.grossMinor, status.amount.currency)}</dd>
        <dt>Net</dt>
        <dd>{formatCents(status.amount.netMinor, status.amount.currency)}</dd>
        <dt>{status.amount.vatLabel}</dt>
        <dd>{formatCents(status.amount.vatMinor, status.amount.currency)}</dd>
        <dt>Company</dt>
        <dd>{status.companyName}</dd>
        <dt>Billing email address</dt>
        <dd>{status.billingEmail}</dd>
        {status.poReference ? (
          <>
            <dt>Purchase order</dt>
            <dd>{status.poReference}</dd>
          </>
        ) : null}
        {status.quoteNumber ? (
          <>
            <dt>Quote</dt>
            <dd>{status.quoteNumber}</dd>
          </>
        ) : null}
      </dl>
      {status.amount.note ? <p>{status.amount.note}</p> : null}
      <p>The link works once, until {status.validUntil}.</p>
      <div className={styles.actions}>
        <button
          type="button"
          className="button button-primary"
          onClick={() => void send(CONFIRM_INVOICE_ORDER_PATH, token)}
          disabled={busy}
          aria-busy={busy}
        >
          {busy ? invoiceOrderMessages.confirming : invoiceOrderMessages.confirmButton}
        </button>
        <button
          type="button"
          className="button button-secondary"
          onClick={() => void send(CANCEL_INVOICE_ORDER_PATH, token)}
          disabled={busy}
        >
          {invoiceOrderMessages.cancelButton}
        </button>
      </div>
      {state.kind === 'error' ? <Alert tone="danger">{state.message}</Alert> : null}
    </div>
  );
}
