import { useEffect, useId, useState, type FormEvent } from 'react';
import { Notice } from './Notice.tsx';
import type { OperatorView } from '#shared/contracts/console.ts';
import { roles, roleSummaries, type Role } from '#shared/console/permissions.ts';
import { consoleApi, messageOf } from './console-api.ts';
import { consoleMeta } from './console-meta.ts';
import { can, useConsoleSession } from './layout.tsx';
import styles from './Console.module.css';

export const meta = () => consoleMeta('Operators');

type Notice = { tone: 'success' | 'danger'; text: string } | null;

function RoleSelect(props: {
  id: string;
  value: Role;
  onChange: (role: Role) => void;
  label: string;
  hideLabel?: boolean;
}) {
  return (
    <div className={styles.field}>
      <label htmlFor={props.id} className={props.hideLabel ? 'visually-hidden' : undefined}>
        {props.label}
      </label>
      <select
        id={props.id}
        className={styles.control}
        value={props.value}
        onChange={(event) => {
          const role = roles.find((candidate) => candidate === event.target.value);
          if (role) props.onChange(role);
        }}
      >
        {roles.map((role) => (
          <option key={role} value={role}>
            {role}
          </option>
        ))}
      </select>
    </div>
  );
}

function InviteForm({ onInvited }: { onInvited: () => void }) {
  const id = useId();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);
  const [link, setLink] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setNotice(null);
    setLink(null);
    const answer = await consoleApi('operators', { body: { email: email.trim(), role } });
    setBusy(false);
    if (answer.status !== 201) {
      setNotice({ tone: 'danger', text: messageOf(answer, 'The invitation did not succeed.') });
      return;
    }
    const { enrolmentUrl } = answer.body as { enrolmentUrl: string };
    setLink(enrolmentUrl);
    setNotice({
      tone: 'success',
      text: `Invited ${email.trim()} as ${role}. Send them this link: it works once, for 24 hours, and is shown only now.`,
    });
    setEmail('');
    onInvited();
  }

  return (
    <section className={styles.card} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Invite an operator</h2>
      <form className={styles.form} onSubmit={(event) => void submit(event)}>
        <div className={styles.field}>
          <label htmlFor={`${id}-email`}>E-mail address</label>
          <input
            id={`${id}-email`}
            className={styles.control}
            type="email"
            autoComplete="off"
            required
            maxLength={254}
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </div>
        <RoleSelect id={`${id}-role`} label="Role" value={role} onChange={setRole} />
        <button
          type="submit"
          className="button button-primary"
          aria-busy={busy || undefined}
          disabled={busy}
        >
          Invite
        </button>
      </form>
      {notice ? <Notice tone={notice.tone}>{notice.text}</Notice> : null}
      {link ? (
        <p className={styles.link} data-testid="enrolment-link">
          {link}
        </p>
      ) : null}
      <ul className={styles.muted}>
        {roles.map((role) => (
          <li key={role}>
            <strong>{role}</strong>: {roleSummaries[role]}
          </li>
        ))}
      </ul>
    </section>
  );
}

function OperatorRow(props: {
  operator: OperatorView;
  own: boolean;
  onChanged: (notice: Notice) => void;
}) {
  const { operator, own } = props;
  const id = useId();
  const [role, setRole] = useState<Role>(operator.role);
  const [busy, setBusy] = useState(false);
  const disabled = operator.status === 'disabled';

  async function act(path: string, init: { method: string; body?: unknown }, done: string) {
    setBusy(true);
    const answer = await consoleApi(path, init);
    setBusy(false);
    props.onChanged(
      answer.status === 200
        ? { tone: 'success', text: done }
        : { tone: 'danger', text: messageOf(answer, 'The change did not succeed.') },
    );
  }

  return (
    <tr>
      <td>{operator.email}</td>
      <td>{operator.status}</td>
      <td>
        {own || disabled ? (
          operator.role
        ) : (
          <RoleSelect
            id={`${id}-role`}
            label={`Role of ${operator.email}`}
            hideLabel
            value={role}
            onChange={setRole}
          />
        )}
      </td>
      <td>
        {own ? (
          <span className={styles.muted}>You</span>
        ) : disabled ? null : (
          <div className={styles.rowActions}>
            <button
              type="button"
              className="button button-secondary button-sm"
              disabled={busy || role === operator.role}
              onClick={() =>
                void act(
                  `operators/${operator.id}`,
                  { method: 'PATCH', body: { role } },
                  `${operator.email} is now ${role}.`,
                )
              }
            >
              Change role<span className="visually-hidden"> of {operator.email}</span>
            </button>
            <button
              type="button"
              className="button button-ghost button-sm"
              disabled={busy}
              onClick={() => {
                if (!window.confirm(`Disable ${operator.email}? Their sessions end now.`)) return;
                void act(
                  `operators/${operator.id}/disable`,
                  { method: 'POST' },
                  `${operator.email} is disabled; their sessions ended.`,
                );
              }}
            >
              Disable<span className="visually-hidden"> {operator.email}</span>
            </button>
          </div>
        )}
      </td>
    </tr>
  );
}

/** The owner's page: every operator, invitations, roles and disabling — each change audited. */
export default function ConsoleOperators() {
  const session = useConsoleSession();
  const [operators, setOperators] = useState<OperatorView[] | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const allowed = can(session, 'operator.manage');

  useEffect(() => {
    if (!allowed) return;
    let current = true;
    void consoleApi('operators').then((answer) => {
      if (!current) return;
      if (answer.status === 401) window.location.assign('/console/sign-in');
      else if (answer.status !== 200)
        setLoadError(messageOf(answer, 'The operators could not be read.'));
      else setOperators((answer.body as { operators: OperatorView[] }).operators);
    });
    return () => {
      current = false;
    };
  }, [allowed, version]);

  if (!session) return null;
  if (!allowed) {
    return (
      <>
        <h1>Operators</h1>
        <Notice tone="info">Your role ({session.operator.role}) does not manage operators.</Notice>
      </>
    );
  }
  const refresh = () => setVersion((value) => value + 1);
  return (
    <>
      <h1>Operators</h1>
      {can(session, 'operator.invite') ? <InviteForm onInvited={refresh} /> : null}
      <section className={styles.card} aria-labelledby="operators-title">
        <h2 id="operators-title">Everyone with access</h2>
        {notice ? <Notice tone={notice.tone}>{notice.text}</Notice> : null}
        {loadError ? <Notice tone="danger">{loadError}</Notice> : null}
        {operators === null && !loadError ? <p aria-live="polite">Loading…</p> : null}
        {operators ? (
          <div className={styles.tableWrap}>
            <table className={styles.table}>
              <caption className="visually-hidden">Operators of the console</caption>
              <thead>
                <tr>
                  <th scope="col">E-mail</th>
                  <th scope="col">Status</th>
                  <th scope="col">Role</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {operators.map((operator) => (
                  <OperatorRow
                    key={`${operator.id}-${operator.role}-${operator.status}`}
                    operator={operator}
                    own={operator.id === session.operator.id}
                    onChanged={(change) => {
                      setNotice(change);
                      refresh();
                    }}
                  />
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </section>
    </>
  );
}
