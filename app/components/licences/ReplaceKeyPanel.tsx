import { useEffect, useRef, useState } from 'react';
import { useRouteLoaderData } from 'react-router';
import { failureMessages } from '#shared/contracts/messages.ts';
import { lostKeyMessages, REPLACE_KEY_PATH } from '#shared/contracts/licence-recovery.ts';
import { apiFetch } from '#app/http/api-fetch.ts';
import type { RootData } from '#app/root-data.ts';
import { SuccessView } from '../forms/SuccessView.tsx';
import { Alert } from '../ui/Alert.tsx';
import { LostKeyForm } from './LostKeyForm.tsx';
import styles from './ReplaceKeyPanel.module.css';

type State =
  | { kind: 'idle' }
  | { kind: 'processing' }
  | { kind: 'replaced'; sentTo: string }
  | { kind: 'linkInvalid' }
  | { kind: 'error' };

function sentToOf(body: unknown): string {
  if (typeof body === 'object' && body !== null && 'sentTo' in body) {
    return typeof body.sentTo === 'string' ? body.sentTo : 'your licence e-mail address';
  }
  return 'your licence e-mail address';
}

/**
 * The page behind the lost-key e-mail's link: one click replaces the licence key (a button, not
 * the link itself, so mail scanners that open links change nothing).
 */
export function ReplaceKeyPanel({ token }: { token: string | null }) {
  const root = useRouteLoaderData<RootData>('root');
  const accountApiUrl = root?.accountApiUrl ?? '';
  const [state, setState] = useState<State>({ kind: 'idle' });
  const abortRef = useRef<AbortController | null>(null);
  useEffect(() => () => abortRef.current?.abort(), []);

  if (!token) return <LostKeyForm />;

  async function replace() {
    const controller = new AbortController();
    abortRef.current = controller;
    setState({ kind: 'processing' });
    try {
      const response = await apiFetch(`${accountApiUrl}${REPLACE_KEY_PATH}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token }),
        signal: controller.signal,
        trustedBase: accountApiUrl,
      });
      if (response.ok) setState({ kind: 'replaced', sentTo: sentToOf(await response.json()) });
      else setState(response.status === 410 ? { kind: 'linkInvalid' } : { kind: 'error' });
    } catch {
      if (!controller.signal.aborted) setState({ kind: 'error' });
    }
  }

  if (state.kind === 'linkInvalid') {
    return (
      <>
        <Alert tone="danger">{lostKeyMessages.linkInvalid}</Alert>
        <LostKeyForm />
      </>
    );
  }

  if (state.kind === 'replaced') {
    return (
      <SuccessView
        title="Key replaced"
        headingLevel={2}
        message={lostKeyMessages.replaced(state.sentTo)}
        next="open the e-mail with your new key and enter it wherever you used the old one. Access tokens you created for CI keep working."
      />
    );
  }

  return (
    <div className={styles.panel}>
      <p>
        Your new key will be e-mailed to the address the licence was issued to. The old key stops
        working at once, so update it wherever you use it. Access tokens you created for CI keep
        working.
      </p>
      <button
        type="button"
        className="button button-primary"
        onClick={() => void replace()}
        disabled={state.kind === 'processing'}
        aria-busy={state.kind === 'processing'}
      >
        {state.kind === 'processing' ? 'Replacing…' : 'Replace my licence key'}
      </button>
      {state.kind === 'error' ? <Alert tone="danger">{failureMessages.licensing}</Alert> : null}
    </div>
  );
}
