import { useCallback, useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Notice } from './Notice.tsx';
import { consoleApi, messageOf } from './console-api.ts';
import { consoleMeta } from './console-meta.ts';
import { formatCount, formatDate, formatDateTime, formatMoney } from './format.ts';
import { can, useConsoleSession } from './layout.tsx';
import { LicenceActions, type ActionNotice } from './LicenceActions.tsx';
import type { StoryLicence } from './story-types.ts';
import styles from './Console.module.css';

export const meta = () => consoleMeta('Customer');

interface Story {
  customer: string;
  spellings: string[];
  licences: StoryLicence[];
  subscriptions: {
    provider: string;
    subscriptionId: string;
    status: string;
    edition: string | null;
    quantity: number | null;
    billingPeriod: string | null;
    currency: string | null;
    currentPeriodEnd: string | null;
    cancelAtPeriodEnd: boolean | null;
    endedAt: string | null;
  }[];
  invoiceOrders: {
    id: string;
    status: string;
    createdAt: string;
    confirmedAt: string | null;
    cancelledAt: string | null;
    invoiceNumber: string | null;
    quoteNumber: string | null;
  }[];
  quotes: {
    number: string;
    status: string;
    companyName: string | null;
    edition: string;
    quantity: number;
    currency: string;
    totalCents: number;
    quoteDate: string;
    validUntil: string;
  }[];
  documents: {
    number: string;
    kind: string;
    issuedOn: string;
    currency: string;
    grossMinor: number;
    paidAt: string | null;
    creditsNumber: string | null;
    pdfUrl: string;
  }[];
  emails: {
    kind: string;
    to: string;
    subject: string;
    status: string;
    attempts: number;
    createdAt: string;
    sentAt: string | null;
  }[];
  contactMessages: number;
  audit:
    | {
        id: string;
        occurredAt: string;
        actor: string;
        action: string;
        target: { type: string; id: string };
        reason: string | null;
      }[]
    | null;
}

type Loaded =
  | { state: 'loading' }
  | { state: 'failed'; message: string; notFound: boolean }
  | { state: 'done'; story: Story };

/**
 * A customer's whole story (issue 40, decision 227): licences with their orgs and tokens, what
 * they bought and were sent, and the audit trail; with the licence actions the operator's role
 * allows (decision 231). After an action the story is read again.
 */
export default function ConsoleCustomer() {
  const session = useConsoleSession();
  const [params] = useSearchParams();
  const address = (params.get('address') ?? '').trim();
  const [notice, setNotice] = useState<ActionNotice | null>(null);
  const [version, setVersion] = useState(0);
  const [answer, setAnswer] = useState<{ of: string; loaded: Loaded } | null>(null);
  const [shown, setShown] = useState<{ address: string; story: Story } | null>(null);
  const reading = `${address}#${version}`;

  useEffect(() => {
    if (!address) return;
    let current = true;
    const settle = (loaded: Loaded) => {
      if (!current) return;
      setAnswer({ of: reading, loaded });
      if (loaded.state === 'done') setShown({ address, story: loaded.story });
    };
    void consoleApi(`customer?${new URLSearchParams({ address }).toString()}`)
      .then((reply) => {
        if (reply.status === 401) window.location.assign('/console/sign-in');
        else if (reply.status === 200) settle({ state: 'done', story: reply.body as Story });
        else
          settle({
            state: 'failed',
            notFound: reply.status === 404 || reply.status === 400,
            message:
              reply.status === 400
                ? `“${address}” is not an e-mail address.`
                : messageOf(reply, 'The story could not be read.'),
          });
      })
      .catch(() =>
        settle({
          state: 'failed',
          notFound: false,
          message: 'The console did not answer. Try again.',
        }),
      );
    return () => {
      current = false;
    };
  }, [address, reading]);

  // While the story is read again after an action, the one shown stays (no flash of "Loading").
  const loaded: Loaded = !address
    ? {
        state: 'failed',
        notFound: true,
        message: 'No customer named: open a customer from the search.',
      }
    : answer?.of === reading
      ? answer.loaded
      : shown?.address === address
        ? { state: 'done', story: shown.story }
        : { state: 'loading' };

  const acted = useCallback((next: ActionNotice) => {
    setNotice(next);
    if (next.tone === 'success') setVersion((value) => value + 1);
  }, []);

  if (!session) return null;
  if (loaded.state !== 'done') {
    return (
      <>
        <h1>Customer</h1>
        {loaded.state === 'loading' ? (
          <p aria-live="polite">Loading…</p>
        ) : (
          <Notice tone={loaded.notFound ? 'info' : 'danger'}>
            {loaded.message} <Link to="/console/customers">Search customers</Link>
          </Notice>
        )}
      </>
    );
  }
  const { story } = loaded;
  const billing = can(session, 'billing.read');
  return (
    <>
      <p className={styles.crumbs}>
        <Link to="/console/customers">Customers</Link>
      </p>
      <h1 className={styles.breakWord}>{story.customer}</h1>
      {story.spellings.length > 1 ? (
        <p className={styles.muted}>Also written: {story.spellings.join(', ')}</p>
      ) : null}
      {can(session, 'licence.read') && story.licences.length > 0 ? (
        <ViewAsCustomer address={story.customer} />
      ) : null}
      {notice ? (
        <div aria-live="polite">
          <Notice tone={notice.tone}>{notice.text}</Notice>
        </div>
      ) : null}

      <Section id="licences" title={`Licences (${formatCount(story.licences.length)})`}>
        {story.licences.length === 0 ? <p className={styles.muted}>No licences.</p> : null}
        {story.licences.map((licence) => (
          <LicenceCard key={licence.id} licence={licence}>
            <LicenceActions licence={licence} onDone={acted} />
          </LicenceCard>
        ))}
      </Section>

      {billing ? (
        <>
          <Section id="subscriptions" title="Subscriptions">
            <Table
              caption="Subscriptions"
              empty="No subscriptions."
              head={['Subscription', 'Status', 'Plan', 'Period ends', 'Ended']}
              rows={story.subscriptions.map((row) => ({
                key: row.subscriptionId,
                cells: [
                  <>
                    <code>{row.subscriptionId}</code>{' '}
                    <span className={styles.muted}>{row.provider}</span>
                  </>,
                  row.cancelAtPeriodEnd ? `${row.status} (cancels at period end)` : row.status,
                  [row.edition, row.quantity ? `${row.quantity} orgs` : null, row.billingPeriod]
                    .filter(Boolean)
                    .join(', ') || '–',
                  formatDate(row.currentPeriodEnd),
                  formatDate(row.endedAt),
                ],
              }))}
            />
          </Section>
          <Section id="orders" title="Invoice orders">
            <Table
              caption="Invoice orders"
              empty="No invoice orders."
              head={['Order', 'Status', 'Placed', 'Invoice', 'Quote']}
              rows={story.invoiceOrders.map((row) => ({
                key: row.id,
                cells: [
                  <code key="id">{row.id}</code>,
                  row.status,
                  formatDateTime(row.createdAt),
                  row.invoiceNumber ?? '–',
                  row.quoteNumber ?? '–',
                ],
              }))}
            />
          </Section>
          <Section id="quotes" title="Quotes">
            <Table
              caption="Quotes"
              empty="No quotes."
              head={['Quote', 'Status', 'Company', 'Plan', 'Total', 'Valid until']}
              rows={story.quotes.map((row) => ({
                key: row.number,
                cells: [
                  row.number,
                  row.status,
                  row.companyName ?? '–',
                  row.edition === 'Pro' ? `Pro, ${row.quantity} orgs` : row.edition,
                  formatMoney(row.totalCents, row.currency),
                  formatDate(row.validUntil),
                ],
              }))}
            />
          </Section>
          <Section id="documents" title="Documents">
            <Table
              caption="Invoices, receipts and credit notes"
              empty="No documents."
              head={['Document', 'Kind', 'Issued', 'Amount', 'Paid']}
              rows={story.documents.map((row) => ({
                key: row.number,
                cells: [
                  <a key="pdf" href={row.pdfUrl} target="_blank" rel="noreferrer">
                    {row.number}
                    <span className="visually-hidden"> (PDF, opens in a new tab)</span>
                  </a>,
                  row.creditsNumber ? `${row.kind} for ${row.creditsNumber}` : row.kind,
                  formatDate(row.issuedOn),
                  formatMoney(row.grossMinor, row.currency),
                  formatDateTime(row.paidAt),
                ],
              }))}
            />
          </Section>
          <Section id="emails" title="E-mails sent">
            <Table
              caption="E-mails to this customer"
              empty="No e-mails."
              head={['Subject', 'To', 'Status', 'Attempts', 'Queued', 'Sent']}
              rows={story.emails.map((row, index) => ({
                key: `${row.createdAt}-${index}`,
                cells: [
                  row.subject,
                  row.to,
                  row.status,
                  formatCount(row.attempts),
                  formatDateTime(row.createdAt),
                  formatDateTime(row.sentAt),
                ],
              }))}
            />
            {story.contactMessages > 0 ? (
              <p className={styles.muted}>
                And {formatCount(story.contactMessages)} message
                {story.contactMessages === 1 ? '' : 's'} through the contact form.
              </p>
            ) : null}
          </Section>
        </>
      ) : null}

      {story.audit ? (
        <Section id="audit" title="Audit trail">
          <Table
            caption="What happened to this customer's records, newest first"
            empty="Nothing recorded."
            head={['When', 'What', 'Who', 'Reason']}
            rows={story.audit.map((row) => ({
              key: row.id,
              cells: [
                formatDateTime(row.occurredAt),
                <>
                  {row.action} <span className={styles.muted}>{row.target.type}</span>
                </>,
                row.actor,
                row.reason ?? '–',
              ],
            }))}
          />
        </Section>
      ) : null}
    </>
  );
}

/**
 * "View as customer" (decision 236): asks for the reason the audit log keeps, starts a read-only
 * view of this customer's licence page (`POST /console/api/view-as`) and opens it.
 */
function ViewAsCustomer({ address }: { address: string }) {
  const id = useId();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function start(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const reason = String(new FormData(event.currentTarget).get('reason') ?? '').trim();
    setBusy(true);
    setError(null);
    const answer = await consoleApi('view-as', { body: { address, reason } });
    setBusy(false);
    if (answer.status !== 201) {
      setError(messageOf(answer, 'The view could not start.'));
      return;
    }
    await navigate((answer.body as { path: string }).path);
  }

  if (!open) {
    return (
      <p>
        <button
          type="button"
          className="button button-secondary button-sm"
          onClick={() => setOpen(true)}
        >
          View as customer…
        </button>
      </p>
    );
  }
  return (
    <form className={styles.card} onSubmit={(event) => void start(event)}>
      <p className={styles.muted}>
        Their licence page, read-only, for 15 minutes: the start, the end and your reason go into
        the audit log.
      </p>
      <div className={styles.field}>
        <label htmlFor={`${id}-reason`}>Why you look at {address}’s licence page</label>
        <input
          id={`${id}-reason`}
          name="reason"
          required
          minLength={3}
          maxLength={300}
          autoComplete="off"
          className={styles.control}
        />
      </div>
      {error ? <Notice tone="danger">{error}</Notice> : null}
      <div className={styles.rowActions}>
        <button type="submit" className="button button-primary button-sm" disabled={busy}>
          Start the view
        </button>
        <button
          type="button"
          className="button button-ghost button-sm"
          disabled={busy}
          onClick={() => setOpen(false)}
        >
          Cancel
        </button>
      </div>
    </form>
  );
}

function Section(props: { id: string; title: string; children: ReactNode }) {
  return (
    <section className={styles.card} aria-labelledby={`${props.id}-title`}>
      <h2 id={`${props.id}-title`}>{props.title}</h2>
      {props.children}
    </section>
  );
}

/** A table of the story: a caption, column headers, and a box that scrolls at 390 px. */
export function Table(props: {
  caption: string;
  empty: string;
  head: string[];
  rows: { key: string; cells: ReactNode[] }[];
}) {
  if (props.rows.length === 0) return <p className={styles.muted}>{props.empty}</p>;
  return (
    // A scrolling region a keyboard can reach (axe: scrollable-region-focusable).
    <div className={styles.tableWrap} tabIndex={0} role="region" aria-label={props.caption}>
      <table className={styles.table}>
        <caption className="visually-hidden">{props.caption}</caption>
        <thead>
          <tr>
            {props.head.map((name) => (
              <th key={name} scope="col">
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={row.key}>
              {row.cells.map((cell, index) =>
                index === 0 ? (
                  <th key={index} scope="row">
                    {cell}
                  </th>
                ) : (
                  <td key={index}>{cell}</td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function LicenceCard({ licence, children }: { licence: StoryLicence; children: ReactNode }) {
  const limit = licence.orgLimit === 'unlimited' ? 'no limit' : formatCount(licence.orgLimit);
  return (
    <article className={styles.licence} aria-labelledby={`licence-${licence.id}`}>
      <h3 id={`licence-${licence.id}`}>
        {licence.edition} {licence.type.toLowerCase()} <code>{licence.maskedKey}</code>{' '}
        <span className={licence.state === 'valid' ? styles.badge : styles.badgeWarn}>
          {licence.state}
        </span>
      </h3>
      <dl className={styles.facts}>
        <div>
          <dt>Status</dt>
          <dd>{licence.status}</dd>
        </div>
        <div>
          <dt>Expires</dt>
          <dd>{formatDateTime(licence.expiresAt)}</dd>
        </div>
        <div>
          <dt>Orgs</dt>
          <dd>
            {formatCount(licence.orgsInUse)} in use of {limit}
          </dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{formatDateTime(licence.createdAt)}</dd>
        </div>
        <div>
          <dt>Holder</dt>
          <dd className={styles.breakWord}>{licence.email}</dd>
        </div>
        <div>
          <dt>Licence id</dt>
          <dd>
            <code className={styles.breakWord}>{licence.id}</code>
          </dd>
        </div>
        {licence.revokedAt ? (
          <div>
            <dt>{licence.suspended ? 'Suspended' : 'Revoked'}</dt>
            <dd>
              {formatDateTime(licence.revokedAt)}
              {licence.revocationReason ? `: ${licence.revocationReason}` : ''}
            </dd>
          </div>
        ) : null}
      </dl>
      <h4>Orgs</h4>
      <Table
        caption={`Orgs of licence ${licence.maskedKey}`}
        empty="No org has validated this licence."
        head={['Org id', 'First seen', 'Last seen', 'Counts until']}
        rows={licence.orgs.map((org) => ({
          key: org.orgId,
          cells: [
            <code key="org">{org.orgId}</code>,
            formatDateTime(org.firstSeenAt),
            formatDateTime(org.lastSeenAt),
            formatDate(org.countsUntil),
          ],
        }))}
      />
      <h4>Access tokens</h4>
      <Table
        caption={`Access tokens of licence ${licence.maskedKey}`}
        empty="No access tokens."
        head={['Name', 'Hint', 'Created', 'Last used', 'Revoked']}
        rows={licence.tokens.map((token) => ({
          key: token.id,
          cells: [
            token.name,
            <code key="hint">…{token.hint}</code>,
            formatDateTime(token.createdAt),
            formatDateTime(token.lastUsedAt),
            formatDateTime(token.revokedAt),
          ],
        }))}
      />
      {children}
    </article>
  );
}
