import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { useState } from 'react';
import { Notice } from './Notice.tsx';
import type { Route } from './+types/enrol.ts';
import { consoleApi, messageOf, passkeyCancelled } from './console-api.ts';
import { consoleMeta } from './console-meta.ts';
import styles from './Console.module.css';

export const meta = () => consoleMeta('Create your passkey');

/** The page of an enrolment link: one passkey, created once, and the operator is signed in. */
export default function ConsoleEnrol({ params }: Route.ComponentProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { token } = params;

  async function enrol() {
    setBusy(true);
    setError(null);
    try {
      const started = await consoleApi('enrolment/options', { body: { token } });
      if (started.status !== 200) {
        setError(messageOf(started, 'This enrolment link is not valid.'));
        return;
      }
      const { challengeId, options } = started.body as {
        challengeId: string;
        options: PublicKeyCredentialCreationOptionsJSON;
      };
      const { startRegistration } = await import('@simplewebauthn/browser');
      let response;
      try {
        response = await startRegistration({ optionsJSON: options });
      } catch {
        setError(passkeyCancelled);
        return;
      }
      const enrolled = await consoleApi('enrolment', { body: { token, challengeId, response } });
      if (enrolled.status !== 201) {
        setError(messageOf(enrolled, 'Creating the passkey did not succeed.'));
        return;
      }
      window.location.assign('/console');
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className={styles.narrow}>
      <h1>Create your passkey</h1>
      <div className={styles.card}>
        <p>
          You were invited to the Orgsmith operator console. Create a passkey on this device: it is
          how you sign in from now on, with your device&apos;s PIN, fingerprint or face.
        </p>
        <button
          type="button"
          className="button button-primary"
          aria-busy={busy || undefined}
          disabled={busy}
          onClick={() => void enrol()}
        >
          Create a passkey
        </button>
        {error ? <Notice tone="danger">{error}</Notice> : null}
        <p className={styles.muted}>This link works once, for 24 hours after the invitation.</p>
      </div>
    </div>
  );
}
