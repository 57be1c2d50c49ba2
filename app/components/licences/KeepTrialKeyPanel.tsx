import { useState } from 'react';
import { Link, useRouteLoaderData } from 'react-router';
import {
  keepTrialKeyMessages,
  KEEP_TRIAL_KEY_PATH,
  keepTrialKeyFactsSchema,
  type KeepTrialKeyFacts,
  type KeepTrialLinkStatus,
} from '#shared/contracts/keep-trial-key.ts';
import { planName } from '#shared/pricing/index.ts';
import { apiFetch } from '#app/http/api-fetch.ts';
import type { RootData } from '#app/root-data.ts';
import { Alert } from '../ui/Alert.tsx';
import styles from './KeepTrialKeyPanel.module.css';

type State =
  | { kind: 'idle' }
  | { kind: 'busy' }
  | { kind: 'kept'; facts: KeepTrialKeyFacts }
  | { kind: 'gone' }
  | { kind: 'error' };

function Facts({ facts }: { facts: KeepTrialKeyFacts }) {
  return (
    <dl className={styles.facts}>
      <dt>Subscription</dt>
      <dd>{planName(facts.edition, facts.quantity)}</dd>
      <dt>Licence e-mail address</dt>
      <dd>{facts.email}</dd>
      <dt>Trial key</dt>
      <dd>ends in {facts.trialKeyHint}</dd>
      <dt>Key from the purchase e-mail</dt>
      <dd>ends in {facts.newKeyHint}</dd>
    </dl>
  );
}

function Gone({ text }: { text: string }) {
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
 * The page behind "Keep using your trial key" in a licence e-mail (decision 213): what would
 * change, and one button — only it uses the link (POST), so mail scanners change nothing.
 */
export function KeepTrialKeyPanel({
  status,
  token,
}: {
  status: KeepTrialLinkStatus;
  token: string | null;
}) {
  const root = useRouteLoaderData<RootData>('root');
  const accountApiUrl = root?.accountApiUrl ?? '';
  const [state, setState] = useState<State>({ kind: 'idle' });

  if (state.kind === 'kept') {
    return (
      <div className={styles.panel}>
        <Alert tone="success">
          Done. Your trial key (ending in {state.facts.trialKeyHint}) now carries your subscription;
          the key ending in {state.facts.newKeyHint} no longer works. A confirmation is on its way
          to <strong>{state.facts.email}</strong>.
        </Alert>
        <Facts facts={state.facts} />
      </div>
    );
  }
  if (status.state === 'missing' || !token) return <Gone text={keepTrialKeyMessages.missing} />;
  if (status.state === 'invalid' || state.kind === 'gone') {
    return <Gone text={keepTrialKeyMessages.linkInvalid} />;
  }

  async function keep(linkToken: string) {
    setState({ kind: 'busy' });
    try {
      const response = await apiFetch(`${accountApiUrl}${KEEP_TRIAL_KEY_PATH}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token: linkToken }),
        trustedBase: accountApiUrl,
      });
      if (response.status === 200) {
        const body = keepTrialKeyFactsSchema.safeParse(await response.json());
        return setState(body.success ? { kind: 'kept', facts: body.data } : { kind: 'error' });
      }
      setState(response.status === 410 ? { kind: 'gone' } : { kind: 'error' });
    } catch {
      setState({ kind: 'error' });
    }
  }

  const busy = state.kind === 'busy';
  return (
    <div className={styles.panel}>
      <p>{keepTrialKeyMessages.intro}</p>
      <Facts facts={status} />
      <p>
        Confirm, and your trial becomes this subscription’s licence: the trial key keeps working
        with the subscription’s plan, and the key from the purchase e-mail stops working. The link
        works once, until {status.validUntil}.
      </p>
      <p>
        <button
          type="button"
          className="button button-primary"
          onClick={() => void keep(token)}
          disabled={busy}
          aria-busy={busy}
        >
          {busy ? keepTrialKeyMessages.working : keepTrialKeyMessages.button}
        </button>
      </p>
      {state.kind === 'error' ? <Alert tone="danger">{keepTrialKeyMessages.failed}</Alert> : null}
    </div>
  );
}
