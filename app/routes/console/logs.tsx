import { useEffect, useId, useState, type FormEvent } from 'react';
import { Notice } from './Notice.tsx';
import { consoleApi, messageOf } from './console-api.ts';
import { consoleMeta } from './console-meta.ts';
import { can, useConsoleSession } from './layout.tsx';
import styles from './Console.module.css';

export const meta = () => consoleMeta('Logs');

type NoticeState = { tone: 'success' | 'danger'; text: string } | null;

interface EmailEntry {
  id: number;
  kind: string;
  to: string;
  subject: string;
  status: string;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
  resentFrom: number | null;
  resendableUntil: string | null;
}

interface EventEntry {
  seq: number;
  eventId: string;
  type: string;
  status: string;
  duplicates: number;
  error: string | null;
  receivedAt: string;
}

const emailStatuses = ['pending', 'sent', 'failed'] as const;
const eventStatuses = [
  'applied',
  'duplicate',
  'ignored',
  'stale',
  'pending',
  'failed',
  'unknown',
] as const;

const time = (iso: string | null) =>
  iso ? new Date(iso).toISOString().replace('T', ' ').slice(0, 16) : '—';

type PageResult<T> = { rows: T[]; next: number | null } | { error: string };

/** One page of a log (keyset: `before` = the page before's `next`); to sign-in on 401. */
async function fetchPage<T>(
  path: string,
  key: 'emails' | 'events',
  queryText: string,
  before: number | null,
): Promise<PageResult<T>> {
  const params = new URLSearchParams(queryText);
  if (before !== null) params.set('before', String(before));
  const text = params.toString();
  const answer = await consoleApi(text ? `${path}?${text}` : path);
  if (answer.status === 401) window.location.assign('/console/sign-in');
  if (answer.status !== 200) return { error: messageOf(answer, 'The log could not be read.') };
  const body = answer.body as Record<string, unknown> & { next: number | null };
  return { rows: body[key] as T[], next: body.next };
}

/** Reads one log page by page, again on a new filter or after a change (`version`). */
function useLogPages<T>(
  path: string,
  key: 'emails' | 'events',
  query: URLSearchParams,
  version: number,
) {
  const [rows, setRows] = useState<T[] | null>(null);
  const [next, setNext] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const queryText = query.toString();

  const apply = (result: PageResult<T>, append: boolean) => {
    if ('error' in result) {
      setError(result.error);
      return;
    }
    setError(null);
    setRows((current) => (append ? [...(current ?? []), ...result.rows] : result.rows));
    setNext(result.next);
  };

  useEffect(() => {
    let current = true;
    void fetchPage<T>(path, key, queryText, null).then((result) => {
      if (current) apply(result, false);
    });
    return () => {
      current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `apply` only calls state setters
  }, [path, key, queryText, version]);

  return {
    rows,
    next,
    error,
    more: async () => apply(await fetchPage<T>(path, key, queryText, next), true),
  };
}

function EmailLog({ mayAct }: { mayAct: boolean }) {
  const id = useId();
  const [status, setStatus] = useState('');
  const [to, setTo] = useState('');
  const [query, setQuery] = useState(new URLSearchParams());
  const [version, setVersion] = useState(0);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<NoticeState>(null);
  const log = useLogPages<EmailEntry>('emails', 'emails', query, version);

  function filter(event: FormEvent) {
    event.preventDefault();
    const params = new URLSearchParams();
    if (status) params.set('status', status);
    if (to.trim()) params.set('to', to.trim());
    setQuery(params);
  }

  async function act(email: EmailEntry, action: 'retry' | 'resend') {
    if (reason.trim().length < 3) {
      setNotice({ tone: 'danger', text: 'Give a reason (at least 3 characters) first.' });
      return;
    }
    setBusy(true);
    const answer = await consoleApi(`emails/${email.id}/${action}`, {
      body: { reason: reason.trim() },
    });
    setBusy(false);
    if (answer.status !== 200) {
      setNotice({ tone: 'danger', text: messageOf(answer, 'That did not succeed.') });
      return;
    }
    setNotice({
      tone: 'success',
      text:
        action === 'retry'
          ? `E-mail ${email.id} to ${email.to} is queued to be sent now.`
          : `E-mail ${email.id} is queued again for ${email.to}, as a new message.`,
    });
    setReason('');
    setVersion((value) => value + 1);
  }

  return (
    <section className={styles.card} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>E-mails</h2>
      <form className={styles.form} onSubmit={filter} aria-label="Filter e-mails">
        <div className={styles.field}>
          <label htmlFor={`${id}-status`}>Status</label>
          <select
            id={`${id}-status`}
            className={styles.control}
            value={status}
            onChange={(event) => setStatus(event.target.value)}
          >
            <option value="">any</option>
            {emailStatuses.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </div>
        <div className={styles.field}>
          <label htmlFor={`${id}-to`}>Recipient</label>
          <input
            id={`${id}-to`}
            className={styles.control}
            type="email"
            autoComplete="off"
            maxLength={254}
            value={to}
            onChange={(event) => setTo(event.target.value)}
          />
        </div>
        <button type="submit" className="button button-secondary">
          Show e-mails
        </button>
      </form>
      {mayAct ? (
        <div className={styles.field}>
          <label htmlFor={`${id}-reason`}>
            Reason for a retry or resend (kept in the audit log)
          </label>
          <input
            id={`${id}-reason`}
            className={styles.control}
            maxLength={300}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
          />
        </div>
      ) : null}
      {notice ? <Notice tone={notice.tone}>{notice.text}</Notice> : null}
      {log.error ? <Notice tone="danger">{log.error}</Notice> : null}
      {log.rows === null && !log.error ? <p aria-live="polite">Loading…</p> : null}
      {log.rows ? (
        <div className={styles.tableWrap} tabIndex={0} role="region" aria-label="E-mails table">
          <table className={styles.table} data-testid="email-log">
            <caption className="visually-hidden">E-mails, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Id</th>
                <th scope="col">Recipient</th>
                <th scope="col">Subject</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last error</th>
                <th scope="col">Created / sent</th>
                {mayAct ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {log.rows.map((email) => (
                <tr key={email.id}>
                  <td>
                    {email.id}
                    {email.resentFrom !== null ? (
                      <span className={styles.muted}> (resends {email.resentFrom})</span>
                    ) : null}
                  </td>
                  <td>{email.to}</td>
                  <td>
                    {email.subject}
                    <span className={styles.muted}> · {email.kind}</span>
                  </td>
                  <td>{email.status}</td>
                  <td>{email.attempts}</td>
                  <td>{email.lastError ?? '—'}</td>
                  <td>
                    {time(email.createdAt)}
                    {email.sentAt ? ` / ${time(email.sentAt)}` : ''}
                  </td>
                  {mayAct ? (
                    <td>
                      {email.status === 'failed' ? (
                        <button
                          type="button"
                          className="button button-secondary button-sm"
                          disabled={busy}
                          onClick={() => void act(email, 'retry')}
                        >
                          Retry now<span className="visually-hidden"> e-mail {email.id}</span>
                        </button>
                      ) : null}
                      {email.resendableUntil ? (
                        <button
                          type="button"
                          className="button button-ghost button-sm"
                          disabled={busy}
                          onClick={() => void act(email, 'resend')}
                        >
                          Resend<span className="visually-hidden"> e-mail {email.id}</span>
                        </button>
                      ) : null}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
          {log.rows.length === 0 ? <p>No e-mails match.</p> : null}
        </div>
      ) : null}
      {log.next !== null ? (
        <button type="button" className="button button-ghost" onClick={() => void log.more()}>
          Older e-mails
        </button>
      ) : null}
    </section>
  );
}

function EventLog() {
  const id = useId();
  const [status, setStatus] = useState('');
  const [type, setType] = useState('');
  const [query, setQuery] = useState(new URLSearchParams());
  const log = useLogPages<EventEntry>('events', 'events', query, 0);

  function filter(event: FormEvent) {
    event.preventDefault();
    const params = new URLSearchParams();
    if (status) params.set('status', status);
    if (type.trim()) params.set('type', type.trim());
    setQuery(params);
  }

  return (
    <section className={styles.card} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Stripe events</h2>
      <form className={styles.form} onSubmit={filter} aria-label="Filter events">
        <div className={styles.field}>
          <label htmlFor={`${id}-status`}>Outcome</label>
          <select
            id={`${id}-status`}
            className={styles.control}
            value={status}
            onChange={(event) => setStatus(event.target.value)}
          >
            <option value="">any</option>
            {eventStatuses.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </div>
        <div className={styles.field}>
          <label htmlFor={`${id}-type`}>Event type</label>
          <input
            id={`${id}-type`}
            className={styles.control}
            placeholder="invoice.paid"
            maxLength={100}
            value={type}
            onChange={(event) => setType(event.target.value)}
          />
        </div>
        <button type="submit" className="button button-secondary">
          Show events
        </button>
      </form>
      {log.error ? <Notice tone="danger">{log.error}</Notice> : null}
      {log.rows === null && !log.error ? <p aria-live="polite">Loading…</p> : null}
      {log.rows ? (
        <div className={styles.tableWrap} tabIndex={0} role="region" aria-label="Events table">
          <table className={styles.table} data-testid="event-log">
            <caption className="visually-hidden">Stripe events received, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Received</th>
                <th scope="col">Type</th>
                <th scope="col">Event id</th>
                <th scope="col">Outcome</th>
                <th scope="col">Duplicates</th>
                <th scope="col">Error</th>
              </tr>
            </thead>
            <tbody>
              {log.rows.map((event) => (
                <tr key={event.seq}>
                  <td>{time(event.receivedAt)}</td>
                  <td>{event.type}</td>
                  <td>{event.eventId}</td>
                  <td>{event.status}</td>
                  <td>{event.duplicates}</td>
                  <td>{event.error ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {log.rows.length === 0 ? <p>No events match.</p> : null}
        </div>
      ) : null}
      {log.next !== null ? (
        <button type="button" className="button button-ghost" onClick={() => void log.more()}>
          Older events
        </button>
      ) : null}
    </section>
  );
}

/** What came in from Stripe and what went out by e-mail, with retry and resend (decision 235). */
export default function ConsoleLogs() {
  const session = useConsoleSession();
  if (!session) return null;
  if (!can(session, 'billing.read')) {
    return (
      <>
        <h1>Logs</h1>
        <Notice tone="info">Your role ({session.operator.role}) does not read the logs.</Notice>
      </>
    );
  }
  return (
    <>
      <h1>Logs</h1>
      <EmailLog mayAct={can(session, 'email.resend')} />
      <EventLog />
    </>
  );
}
