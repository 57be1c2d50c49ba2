import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import type { ChangeRequestView } from '#shared/contracts/licence-page.ts';
import { Notice } from './Notice.tsx';
import { consoleApi, messageOf, withStepUp } from './console-api.ts';
import { consoleMeta } from './console-meta.ts';
import { customerPath } from './customer-path.ts';
import { can, useConsoleSession } from './layout.tsx';
import styles from './Console.module.css';
import finance from './Finance.module.css';

export const meta = () => consoleMeta('Change requests');

type Message = { tone: 'success' | 'danger' | 'info'; text: string } | null;

/** A request as `GET /console/api/change-requests` lists it (decision 236). */
interface QueueItem extends ChangeRequestView {
  customer: string;
  licenceId: string | null;
  message: string | null;
  subscription: {
    provider: string;
    subscriptionId: string;
    edition: string | null;
    quantity: number | null;
    billingPeriod: string | null;
  };
}

const kindLabels = { seats: 'Seats', plan: 'Plan', cancel: 'Cancel' } as const;

function wanted(request: QueueItem): string {
  if (request.kind === 'seats') return `Seats: ${request.seats ?? '—'}`;
  if (request.kind === 'plan') return `Plan: ${request.edition ?? '—'}`;
  return 'Cancel the subscription';
}

/** Done or decline, each with the reason the customer reads in the answer's e-mail. */
function AnswerForm(props: { request: QueueItem; onAnswered: (message: Message) => void }) {
  const { request } = props;
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function answer(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const outcome = submitter?.getAttribute('value') === 'decline' ? 'decline' : 'done';
    const reason = String(new FormData(event.currentTarget).get('reason') ?? '').trim();
    setBusy(true);
    setError(null);
    const reply = await withStepUp(() =>
      consoleApi(`change-requests/${request.id}/${outcome}`, { body: { reason } }),
    );
    setBusy(false);
    if (reply.status !== 200) {
      setError(messageOf(reply, 'The answer was not saved.'));
      return;
    }
    props.onAnswered({
      tone: 'success',
      text: `The request of ${request.customer} is ${outcome === 'done' ? 'done' : 'declined'}; they were e-mailed the reason.`,
    });
  }

  return (
    <form className={styles.rowActions} onSubmit={(event) => void answer(event)}>
      <label htmlFor={`${id}-reason`} className="visually-hidden">
        Reason for {request.customer} ({wanted(request)})
      </label>
      <input
        id={`${id}-reason`}
        name="reason"
        className={`${styles.control} ${finance.inline}`}
        placeholder="Reason (e-mailed to the customer)"
        required
        minLength={3}
        maxLength={300}
        autoComplete="off"
      />
      <button
        type="submit"
        name="outcome"
        value="done"
        className="button button-primary button-sm"
        disabled={busy}
      >
        Done<span className="visually-hidden"> for {request.customer}</span>
      </button>
      <button
        type="submit"
        name="outcome"
        value="decline"
        className="button button-ghost button-sm"
        disabled={busy}
      >
        Decline<span className="visually-hidden"> for {request.customer}</span>
      </button>
      {error ? <Notice tone="danger">{error}</Notice> : null}
    </form>
  );
}

/**
 * Finance's queue of customers' change requests (decision 236): subscriptions paid by invoice
 * whose customers asked on the licence page for other seats, another plan or an end. The change
 * itself is made with the billing operations; here it is marked done or declined, with a reason.
 */
export default function ConsoleChangeRequests() {
  const session = useConsoleSession();
  const [requests, setRequests] = useState<QueueItem[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [message, setMessage] = useState<Message>(null);
  const [version, setVersion] = useState(0);
  const allowed = can(session, 'billing.read');

  useEffect(() => {
    if (!allowed) return;
    let current = true;
    void consoleApi('change-requests?status=open').then((answer) => {
      if (!current) return;
      if (answer.status === 401) window.location.assign('/console/sign-in');
      else if (answer.status !== 200)
        setLoadError(messageOf(answer, 'The change requests could not be read.'));
      else setRequests((answer.body as { requests: QueueItem[] }).requests);
    });
    return () => {
      current = false;
    };
  }, [allowed, version]);

  if (!session) return null;
  if (!allowed) {
    return (
      <>
        <h1>Change requests</h1>
        <Notice tone="info">
          Your role ({session.operator.role}) does not see billing records.
        </Notice>
      </>
    );
  }
  const mayAnswer = can(session, 'change_request.answer');
  return (
    <>
      <h1>Change requests</h1>
      <p className={styles.muted}>
        Customers paying by invoice ask on their licence page for other seats, another plan or an
        end. Make the change with the billing operations, then mark it done; or decline it. Either
        way the customer is e-mailed the reason.
      </p>
      {message ? (
        <div aria-live="polite">
          <Notice tone={message.tone}>{message.text}</Notice>
        </div>
      ) : null}
      {loadError ? <Notice tone="danger">{loadError}</Notice> : null}
      {requests === null && !loadError ? <p aria-live="polite">Loading…</p> : null}
      {requests ? (
        <section className={styles.card} aria-labelledby="change-requests-open-title">
          <h2 id="change-requests-open-title">Open, oldest first ({requests.length})</h2>
          {requests.length === 0 ? (
            <p>Nothing is waiting.</p>
          ) : (
            <div className={styles.tableWrap}>
              <table className={styles.table}>
                <caption className="visually-hidden">Open change requests, oldest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Asked</th>
                    <th scope="col">Customer</th>
                    <th scope="col">Subscription</th>
                    <th scope="col">Wants</th>
                    <th scope="col">Message</th>
                    {mayAnswer ? <th scope="col">Answer</th> : null}
                  </tr>
                </thead>
                <tbody>
                  {requests.map((request) => (
                    <tr key={request.id}>
                      <td>{request.createdAt.slice(0, 10)}</td>
                      <td className={styles.breakWord}>
                        <Link to={customerPath(request.customer)}>{request.customer}</Link>
                      </td>
                      <td>
                        {request.subscription.edition ?? '—'},{' '}
                        {request.subscription.quantity ?? '—'} seats,{' '}
                        {request.subscription.billingPeriod ?? '—'}
                        <br />
                        <span className={styles.muted}>{request.subscription.subscriptionId}</span>
                      </td>
                      <td>
                        <span className="visually-hidden">{kindLabels[request.kind]}: </span>
                        {wanted(request)}
                      </td>
                      <td className={styles.breakWord}>{request.message ?? '—'}</td>
                      {mayAnswer ? (
                        <td>
                          <AnswerForm
                            request={request}
                            onAnswered={(next) => {
                              setMessage(next);
                              setVersion((value) => value + 1);
                            }}
                          />
                        </td>
                      ) : null}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      ) : null}
    </>
  );
}
