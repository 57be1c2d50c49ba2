import { useEffect, useId, useState, type FormEvent } from 'react';
import { formatCents } from '#shared/pricing/format-price.ts';
import type { Currency } from '#shared/pricing/price-config.ts';
import { CONSOLE_API } from '#shared/console/paths.ts';
import { Notice } from './Notice.tsx';
import { consoleApi, messageOf, withStepUp, type ConsoleAnswer } from './console-api.ts';
import { consoleMeta } from './console-meta.ts';
import { can, useConsoleSession } from './layout.tsx';
import styles from './Console.module.css';
import finance from './Finance.module.css';

export const meta = () => consoleMeta('Refunds');

type Message = { tone: 'success' | 'danger' | 'info'; text: string } | null;

/** A refund request as `GET /console/api/refunds` lists it (decision 233). */
interface RefundRequestView {
  id: string;
  reference: string;
  amountMinor: number;
  currency: Currency;
  wholeRest: boolean;
  reason: string;
  status: 'pending' | 'refunding' | 'refunded' | 'rejected' | 'failed';
  requestedBy: string;
  requestedAt: string;
  reviewedBy: string | null;
  rejectionReason: string | null;
  failure: string | null;
  creditNoteNumber: string | null;
  endedSubscription: string | null;
  ownRequest?: boolean;
}

interface RefundList {
  approvalAboveMinor: Record<Currency, number>;
  pending: RefundRequestView[];
  recent: RefundRequestView[];
}

interface Preview {
  preview: {
    reference: string;
    currency: Currency;
    paidMinor: number;
    refundableMinor: number;
    amountMinor: number;
    creditNoteBy: 'us' | 'provider';
    subscriptionId: string | null;
    endsSubscription: boolean;
  };
  needsApproval: boolean;
  approvalAboveMinor: number;
  licence: { id: string; email: string; edition: string } | null;
}

/** `12`, `12.3`, `12.34` as cents; empty: the rest (null); anything else: undefined. */
function amountOf(text: string): number | null | undefined {
  const value = text.trim();
  if (value === '') return null;
  const match = /^(\d{1,9})(?:[.,](\d{1,2}))?$/.exec(value);
  if (!match) return undefined;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return cents > 0 ? cents : undefined;
}

const day = (iso: string) => iso.slice(0, 10);

function pdfLink(number: string | null) {
  if (!number) return <span className={styles.muted}>–</span>;
  // Our credit notes open from the console; Stripe's are Stripe's (its dashboard, its e-mail).
  return /^CN-\d{4}-\d{5,9}$/.test(number) ? (
    <a href={`${CONSOLE_API}/documents/${number}/pdf`} target="_blank" rel="noreferrer">
      {number}
    </a>
  ) : (
    number
  );
}

function RequestForm({ onDone }: { onDone: () => void }) {
  const id = useId();
  const [reference, setReference] = useState('');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [preview, setPreview] = useState<Preview | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Message>(null);

  const form = () => {
    const amountMinor = amountOf(amount);
    return amountMinor === undefined
      ? undefined
      : { reference: reference.trim(), amountMinor, reason: reason.trim() };
  };

  const edit = (set: (value: string) => void) => (value: string) => {
    set(value);
    setPreview(null);
  };

  async function showPreview(event: FormEvent) {
    event.preventDefault();
    const body = form();
    setMessage(null);
    if (!body) {
      setMessage({
        tone: 'danger',
        text: 'The amount is a positive number with at most two decimals, e.g. 119.00, or empty for the rest.',
      });
      return;
    }
    setBusy(true);
    const answer = await consoleApi('refunds/preview', { body });
    setBusy(false);
    if (answer.status !== 200) {
      setPreview(null);
      setMessage({ tone: 'danger', text: messageOf(answer, 'The refund could not be checked.') });
      return;
    }
    setPreview(answer.body as Preview);
  }

  async function confirm() {
    const body = form();
    if (!body) return;
    setBusy(true);
    const answer = await consoleApi('refunds', { body });
    setBusy(false);
    if (![200, 201, 202].includes(answer.status)) {
      setMessage({ tone: 'danger', text: messageOf(answer, 'The refund did not succeed.') });
      return;
    }
    const { request, replayed } = answer.body as { request: RefundRequestView; replayed: boolean };
    const money = formatCents(request.amountMinor, request.currency);
    setMessage(
      request.status === 'pending'
        ? {
            tone: 'info',
            text: `${replayed ? 'Already asked: ' : ''}the refund of ${money} of ${request.reference} waits for a second operator.`,
          }
        : request.status === 'refunded'
          ? {
              tone: 'success',
              text: `${replayed ? 'Already refunded' : 'Refunded'} ${money} of ${request.reference}: credit note ${request.creditNoteNumber ?? ''}.${request.endedSubscription ? ` Subscription ${request.endedSubscription} and its licence have ended.` : ''}`,
            }
          : {
              tone: 'info',
              text: `The refund of ${money} of ${request.reference} is ${request.status}.`,
            },
    );
    setPreview(null);
    setReference('');
    setAmount('');
    setReason('');
    onDone();
  }

  const p = preview?.preview;
  return (
    <section className={styles.card} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Refund a payment</h2>
      <form className={finance.form} onSubmit={(event) => void showPreview(event)}>
        <div className={styles.field}>
          <label htmlFor={`${id}-reference`}>Invoice or receipt</label>
          <input
            id={`${id}-reference`}
            className={styles.control}
            required
            maxLength={64}
            autoComplete="off"
            aria-describedby={`${id}-reference-hint`}
            value={reference}
            onChange={(event) => edit(setReference)(event.target.value)}
          />
          <small id={`${id}-reference-hint`} className={styles.muted}>
            INV-YYYY-NNNNN, or Stripe’s invoice number or id
          </small>
        </div>
        <div className={styles.field}>
          <label htmlFor={`${id}-amount`}>Amount (gross)</label>
          <input
            id={`${id}-amount`}
            className={styles.control}
            inputMode="decimal"
            autoComplete="off"
            aria-describedby={`${id}-amount-hint`}
            value={amount}
            onChange={(event) => edit(setAmount)(event.target.value)}
          />
          <small id={`${id}-amount-hint`} className={styles.muted}>
            e.g. 119.00 in the document’s currency; empty: all that is left
          </small>
        </div>
        <div className={`${styles.field} ${finance.wide}`}>
          <label htmlFor={`${id}-reason`}>Reason (printed on the credit note)</label>
          <input
            id={`${id}-reason`}
            className={styles.control}
            required
            minLength={3}
            maxLength={200}
            autoComplete="off"
            value={reason}
            onChange={(event) => edit(setReason)(event.target.value)}
          />
        </div>
        <button
          type="submit"
          className="button button-secondary"
          aria-busy={busy || undefined}
          disabled={busy}
        >
          Check the refund
        </button>
      </form>
      {p && preview ? (
        <div className={finance.preview} aria-live="polite" data-testid="refund-preview">
          <h3>What this refund does</h3>
          <dl className={finance.facts}>
            <dt>Refund</dt>
            <dd>
              {formatCents(p.amountMinor, p.currency)} of {p.reference}
            </dd>
            <dt>Paid</dt>
            <dd>
              {formatCents(p.paidMinor, p.currency)}; {formatCents(p.refundableMinor, p.currency)}{' '}
              left to refund
            </dd>
            <dt>Credit note</dt>
            <dd>
              {p.creditNoteBy === 'us'
                ? 'Ours, with the next number, e-mailed to the buyer'
                : 'Stripe’s, which Stripe e-mails to the buyer'}
            </dd>
            <dt>Licence</dt>
            <dd>
              {p.endsSubscription
                ? `Nothing is left of the latest payment: subscription ${p.subscriptionId ?? ''}${preview.licence ? ` and the ${preview.licence.edition} licence of ${preview.licence.email}` : ''} end at once.`
                : preview.licence
                  ? `The ${preview.licence.edition} licence of ${preview.licence.email} stays as it is.`
                  : 'No licence changes.'}
            </dd>
            <dt>Approval</dt>
            <dd>
              {preview.needsApproval
                ? `Above ${formatCents(preview.approvalAboveMinor, p.currency)}: a second operator approves it before anything is refunded.`
                : 'None needed: it is refunded at once.'}
            </dd>
          </dl>
          <button
            type="button"
            className="button button-primary"
            aria-busy={busy || undefined}
            disabled={busy}
            onClick={() => void confirm()}
          >
            {preview.needsApproval ? 'Ask for approval' : 'Refund now'}
          </button>
        </div>
      ) : null}
      {message ? <Notice tone={message.tone}>{message.text}</Notice> : null}
    </section>
  );
}

function PendingRow(props: {
  request: RefundRequestView;
  mayApprove: boolean;
  onChanged: (message: Message) => void;
}) {
  const { request, mayApprove } = props;
  const id = useId();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);

  async function act(action: () => Promise<ConsoleAnswer>, done: string) {
    setBusy(true);
    const answer = await withStepUp(action);
    setBusy(false);
    props.onChanged(
      answer.status === 200
        ? { tone: 'success', text: done }
        : { tone: 'danger', text: messageOf(answer, 'The change did not succeed.') },
    );
  }

  const money = formatCents(request.amountMinor, request.currency);
  return (
    <tr>
      <td>{day(request.requestedAt)}</td>
      <td>{request.reference}</td>
      <td className={finance.number}>{money}</td>
      <td>{request.reason}</td>
      <td>{request.requestedBy}</td>
      {mayApprove ? (
        <td>
          <div className={styles.rowActions}>
            {request.ownRequest ? (
              <span className={styles.muted}>Yours: another operator approves it</span>
            ) : (
              <button
                type="button"
                className="button button-primary button-sm"
                disabled={busy}
                onClick={() =>
                  void act(
                    () => consoleApi(`refunds/${request.id}/approve`, { method: 'POST' }),
                    `Refunded ${money} of ${request.reference}.`,
                  )
                }
              >
                Approve<span className="visually-hidden"> the refund of {request.reference}</span>
              </button>
            )}
            <label htmlFor={`${id}-reason`} className="visually-hidden">
              Why reject the refund of {request.reference}
            </label>
            <input
              id={`${id}-reason`}
              className={`${styles.control} ${finance.inline}`}
              placeholder="Reason to reject"
              maxLength={300}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
            />
            <button
              type="button"
              className="button button-ghost button-sm"
              disabled={busy || reason.trim().length < 3}
              onClick={() =>
                void act(
                  () =>
                    consoleApi(`refunds/${request.id}/reject`, { body: { reason: reason.trim() } }),
                  `The refund of ${request.reference} is rejected.`,
                )
              }
            >
              Reject<span className="visually-hidden"> the refund of {request.reference}</span>
            </button>
          </div>
        </td>
      ) : null}
    </tr>
  );
}

/** Finance's refunds (decision 233): a request with its preview, the approvals queue, the recent ones. */
export default function ConsoleRefunds() {
  const session = useConsoleSession();
  const [list, setList] = useState<RefundList | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [message, setMessage] = useState<Message>(null);
  const [version, setVersion] = useState(0);
  const allowed = can(session, 'billing.read');

  useEffect(() => {
    if (!allowed) return;
    let current = true;
    void consoleApi('refunds').then((answer) => {
      if (!current) return;
      if (answer.status === 401) window.location.assign('/console/sign-in');
      else if (answer.status !== 200)
        setLoadError(messageOf(answer, 'The refunds could not be read.'));
      else setList(answer.body as RefundList);
    });
    return () => {
      current = false;
    };
  }, [allowed, version]);

  if (!session) return null;
  if (!allowed) {
    return (
      <>
        <h1>Refunds</h1>
        <Notice tone="info">
          Your role ({session.operator.role}) does not see billing records.
        </Notice>
      </>
    );
  }
  const refresh = () => setVersion((value) => value + 1);
  const mayApprove = can(session, 'refund.approve');
  return (
    <>
      <h1>Refunds</h1>
      {can(session, 'refund.request') ? <RequestForm onDone={refresh} /> : null}
      {loadError ? <Notice tone="danger">{loadError}</Notice> : null}
      {list === null && !loadError ? <p aria-live="polite">Loading…</p> : null}
      {list ? (
        <>
          <section className={styles.card} aria-labelledby="refunds-pending-title">
            <h2 id="refunds-pending-title">Waiting for approval</h2>
            <p className={styles.muted}>
              A refund above{' '}
              {Object.entries(list.approvalAboveMinor)
                .map(([currency, minor]) => formatCents(minor, currency as Currency))
                .join(' or ')}{' '}
              waits here for a second operator who may approve refunds.
            </p>
            {message ? <Notice tone={message.tone}>{message.text}</Notice> : null}
            {list.pending.length === 0 ? (
              <p>Nothing is waiting.</p>
            ) : (
              <div className={styles.tableWrap}>
                <table className={styles.table}>
                  <caption className="visually-hidden">Refunds waiting for approval</caption>
                  <thead>
                    <tr>
                      <th scope="col">Asked</th>
                      <th scope="col">Document</th>
                      <th scope="col">Amount</th>
                      <th scope="col">Reason</th>
                      <th scope="col">Asked by</th>
                      {mayApprove ? <th scope="col">Actions</th> : null}
                    </tr>
                  </thead>
                  <tbody>
                    {list.pending.map((request) => (
                      <PendingRow
                        key={request.id}
                        request={request}
                        mayApprove={mayApprove}
                        onChanged={(change) => {
                          setMessage(change);
                          refresh();
                        }}
                      />
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
          <section className={styles.card} aria-labelledby="refunds-recent-title">
            <h2 id="refunds-recent-title">Recent refunds</h2>
            {list.recent.length === 0 ? (
              <p>No refunds yet.</p>
            ) : (
              <div className={styles.tableWrap}>
                <table className={styles.table}>
                  <caption className="visually-hidden">Recent refunds from the console</caption>
                  <thead>
                    <tr>
                      <th scope="col">Asked</th>
                      <th scope="col">Document</th>
                      <th scope="col">Amount</th>
                      <th scope="col">Status</th>
                      <th scope="col">Credit note</th>
                      <th scope="col">Asked by</th>
                      <th scope="col">Approved or rejected by</th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.recent.map((request) => (
                      <tr key={request.id}>
                        <td>{day(request.requestedAt)}</td>
                        <td>{request.reference}</td>
                        <td className={finance.number}>
                          {formatCents(request.amountMinor, request.currency)}
                        </td>
                        <td>
                          {request.status}
                          {request.rejectionReason ? `: ${request.rejectionReason}` : ''}
                          {request.failure ? `: ${request.failure}` : ''}
                        </td>
                        <td>{pdfLink(request.creditNoteNumber)}</td>
                        <td>{request.requestedBy}</td>
                        <td>{request.reviewedBy ?? '–'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        </>
      ) : null}
    </>
  );
}
