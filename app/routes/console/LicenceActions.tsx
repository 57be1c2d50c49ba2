import { useId, useState, type FormEvent, type ReactNode } from 'react';
import {
  licenceActionPermissions,
  MAX_ACTION_REASON_LENGTH,
  type LicenceActionName,
} from '#shared/console/licence-actions.ts';
import { Notice } from './Notice.tsx';
import { consoleApi, messageOf, passkeyCancelled, withStepUp } from './console-api.ts';
import { can, useConsoleSession } from './layout.tsx';
import type { StoryLicence } from './story-types.ts';
import styles from './Console.module.css';

export interface ActionNotice {
  tone: 'success' | 'danger';
  text: string;
}

/** The Pro sizes an org limit may take (server: `PRO_MIN_ORGS`…`PRO_MAX_ORGS`). */
const MIN_ORGS = 4;
const MAX_ORGS = 24;
const MAX_TRIAL_DAYS = 366;

/**
 * The licence actions an operator's role allows (decision 231), each a disclosure with a form:
 * the reason is required (the audit log keeps it), the server's refusal is shown in the form,
 * revoking asks for the passkey again when the last check is older than five minutes.
 */
export function LicenceActions(props: {
  licence: StoryLicence;
  onDone: (notice: ActionNotice) => void;
}) {
  const session = useConsoleSession();
  const { licence } = props;
  const allowed = (kind: LicenceActionName) => can(session, licenceActionPermissions[kind]);
  const revoked = licence.revokedAt !== null;
  const liveTokens = licence.tokens.filter((token) => token.revokedAt === null);
  const forms: ReactNode[] = [];
  const add = (kind: LicenceActionName, node: ReactNode) => {
    if (allowed(kind)) forms.push(<li key={kind}>{node}</li>);
  };
  const common = { licence, onDone: props.onDone };

  const revokeForm = (
    <ActionForm
      {...common}
      kind="revoke"
      title="Revoke"
      tone="danger"
      explain={
        licence.suspended
          ? 'Turns the suspension into a revocation at once: its access tokens end for good. Asks for your passkey again.'
          : 'Validations answer DEACTIVATED at once, until the licence is reinstated; its access tokens end for good. Asks for your passkey again.'
      }
    />
  );
  if (revoked) {
    // A suspension is revoked for good without a reinstatement in between (decision 248).
    if (licence.suspended) add('revoke', revokeForm);
    add(
      'reinstate',
      <ActionForm
        {...common}
        kind="reinstate"
        title="Reinstate"
        explain={
          licence.suspended
            ? 'Lifts the suspension: validations answer as the subscription and dates say, and the access tokens it kept work again.'
            : 'Lifts the revocation: validations answer as the subscription and dates say. The access tokens it ended stay ended.'
        }
      />,
    );
  } else {
    add(
      'suspend',
      <ActionForm
        {...common}
        kind="suspend"
        title="Suspend"
        tone="danger"
        explain="Validations answer DEACTIVATED at once, with the licence's access tokens, until it is reinstated (the tokens are kept)."
      />,
    );
    add('revoke', revokeForm);
  }
  if (licence.type === 'Trial') {
    add(
      'extend-trial',
      <ActionForm
        {...common}
        kind="extend-trial"
        title="Extend the trial"
        explain="Moves the trial's end date by whole days."
        fields={(values, set, id) => (
          <NumberField
            id={`${id}-days`}
            label="Days"
            min={1}
            max={MAX_TRIAL_DAYS}
            value={values.days ?? '14'}
            onChange={(value) => set('days', value)}
          />
        )}
        body={(values) => ({ days: Number(values.days ?? '14') })}
      />,
    );
  }
  if (licence.type !== 'Trial' && licence.edition === 'Pro' && !licence.subscriptionId) {
    add(
      'change-orgs',
      <ActionForm
        {...common}
        kind="change-orgs"
        title="Change the org limit"
        explain={`A Pro licence allows ${MIN_ORGS} to ${MAX_ORGS} orgs. Licences of a subscription follow its quantity instead.`}
        fields={(values, set, id) => (
          <NumberField
            id={`${id}-orgs`}
            label="Orgs allowed"
            min={MIN_ORGS}
            max={MAX_ORGS}
            value={values.orgs ?? String(licence.quantity)}
            onChange={(value) => set('orgs', value)}
          />
        )}
        body={(values) => ({ orgs: Number(values.orgs ?? licence.quantity) })}
      />,
    );
  }
  if (licence.orgs.length > 0) {
    add(
      'release-org',
      <ActionForm
        {...common}
        kind="release-org"
        title="Release an org"
        explain="Frees the org's slot now (after a sandbox refresh, say); it takes one again when it validates."
        fields={(values, set, id) => (
          <SelectField
            id={`${id}-org`}
            label="Org"
            value={values.orgId ?? licence.orgs[0]?.orgId ?? ''}
            options={licence.orgs.map((org) => ({ value: org.orgId, label: org.orgId }))}
            onChange={(value) => set('orgId', value)}
          />
        )}
        body={(values) => ({ orgId: values.orgId ?? licence.orgs[0]?.orgId ?? '' })}
      />,
    );
  }
  add(
    'resend-key',
    <ActionForm
      {...common}
      kind="resend-key"
      title="Resend the key"
      explain={`E-mails ${licence.email} a link per licence that replaces its key when clicked.`}
    />,
  );
  add(
    'replace-key',
    <ActionForm
      {...common}
      kind="replace-key"
      title="Replace the key"
      tone="danger"
      explain="A new key goes to the holder; the old one stops working and its access tokens end."
    />,
  );
  if (liveTokens.length > 0) {
    add(
      'revoke-token',
      <ActionForm
        {...common}
        kind="revoke-token"
        title="Revoke an access token"
        tone="danger"
        explain="The token stops working at once."
        fields={(values, set, id) => (
          <SelectField
            id={`${id}-token`}
            label="Access token"
            value={values.tokenId ?? liveTokens[0]?.id ?? ''}
            options={liveTokens.map((token) => ({
              value: token.id,
              label: `${token.name} (…${token.hint})`,
            }))}
            onChange={(value) => set('tokenId', value)}
          />
        )}
        body={(values) => ({ tokenId: values.tokenId ?? liveTokens[0]?.id ?? '' })}
      />,
    );
  }

  if (forms.length === 0) return null;
  return (
    <>
      <h4>Actions</h4>
      <ul className={styles.actions}>{forms}</ul>
    </>
  );
}

type Values = Record<string, string>;

function ActionForm(props: {
  licence: StoryLicence;
  kind: LicenceActionName;
  title: string;
  explain: string;
  tone?: 'danger';
  fields?: (values: Values, set: (name: string, value: string) => void, id: string) => ReactNode;
  body?: (values: Values) => Record<string, unknown>;
  onDone: (notice: ActionNotice) => void;
}) {
  const id = useId();
  const [values, setValues] = useState<Values>({});
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const set = (name: string, value: string) => setValues((old) => ({ ...old, [name]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!reason.trim()) {
      setError('Give a reason: the audit log keeps it.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const body = { reason: reason.trim(), ...(props.body?.(values) ?? {}) };
      const path = `licences/${props.licence.id}/${props.kind}`;
      const answer = await withStepUp(() => consoleApi(path, { body }));
      if (answer.status === 401) {
        window.location.assign('/console/sign-in');
        return;
      }
      if (answer.status !== 200) {
        setError(messageOf(answer, 'The action did not succeed.'));
        return;
      }
      const { summary } = answer.body as { summary: string };
      setReason('');
      props.onDone({ tone: 'success', text: `${props.licence.maskedKey}: ${summary}` });
    } catch {
      setError(passkeyCancelled);
    } finally {
      setBusy(false);
    }
  }

  return (
    <details className={styles.disclosure}>
      <summary>
        {props.title}
        <span className="visually-hidden"> of {props.licence.maskedKey}</span>
      </summary>
      <form className={styles.actionForm} onSubmit={(event) => void submit(event)} noValidate>
        <p className={styles.muted}>{props.explain}</p>
        {props.fields?.(values, set, id)}
        <div className={styles.field}>
          <label htmlFor={`${id}-reason`}>Reason (required)</label>
          <textarea
            id={`${id}-reason`}
            className={styles.control}
            rows={2}
            required
            aria-required="true"
            maxLength={MAX_ACTION_REASON_LENGTH}
            aria-invalid={error !== null && !reason.trim() ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
          />
        </div>
        {error ? (
          <div id={`${id}-error`}>
            <Notice tone="danger">{error}</Notice>
          </div>
        ) : null}
        <div>
          <button
            type="submit"
            className={`button button-sm ${props.tone === 'danger' ? styles.dangerButton : 'button-primary'}`}
            aria-busy={busy || undefined}
            disabled={busy}
          >
            {props.title}
          </button>
        </div>
      </form>
    </details>
  );
}

function NumberField(props: {
  id: string;
  label: string;
  min: number;
  max: number;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className={styles.field}>
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        type="number"
        inputMode="numeric"
        className={`${styles.control} ${styles.short}`}
        min={props.min}
        max={props.max}
        step={1}
        required
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
      />
    </div>
  );
}

function SelectField(props: {
  id: string;
  label: string;
  value: string;
  options: { value: string; label: string }[];
  onChange: (value: string) => void;
}) {
  return (
    <div className={styles.field}>
      <label htmlFor={props.id}>{props.label}</label>
      <select
        id={props.id}
        className={styles.control}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
      >
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
