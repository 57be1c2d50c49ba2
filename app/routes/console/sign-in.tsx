import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { useState } from 'react';
import { Notice } from './Notice.tsx';
import { consoleApi, messageOf, passkeyCancelled } from './console-api.ts';
import { consoleMeta } from './console-meta.ts';
import styles from './Console.module.css';

export const meta = () => consoleMeta('Sign in');

/** Passkeys only (decision 226): the browser asks for the passkey and its PIN or biometric. */
export default function ConsoleSignIn() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function signIn() {
    setBusy(true);
    setError(null);
    try {
      const started = await consoleApi('sign-in/options', { method: 'POST' });
      if (started.status !== 200) {
        setError(messageOf(started, 'Signing in is not possible right now. Try again soon.'));
        return;
      }
      const { challengeId, options } = started.body as {
        challengeId: string;
        options: PublicKeyCredentialRequestOptionsJSON;
      };
      const { startAuthentication } = await import('@simplewebauthn/browser');
      let response;
      try {
        response = await startAuthentication({ optionsJSON: options });
      } catch {
        setError(passkeyCancelled);
        return;
      }
      const signedIn = await consoleApi('sign-in', { body: { challengeId, response } });
      if (signedIn.status !== 200) {
        setError(messageOf(signedIn, 'Signing in did not succeed.'));
        return;
      }
      window.location.assign('/console');
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className={styles.narrow}>
      <h1>Sign in</h1>
      <div className={styles.card}>
        <p>
          Sign in to the Orgsmith operator console with the passkey you created when you enrolled.
        </p>
        <button
          type="button"
          className="button button-primary"
          aria-busy={busy || undefined}
          disabled={busy}
          onClick={() => void signIn()}
        >
          Sign in with a passkey
        </button>
        {error ? <Notice tone="danger">{error}</Notice> : null}
        <p className={styles.muted}>
          No passkey yet? An owner invites you: the invitation is a one-time enrolment link.
        </p>
      </div>
    </div>
  );
}
