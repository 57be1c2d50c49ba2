import { useId, useRef, useState, type FormEvent } from 'react';
import { useRevalidator } from 'react-router';
import { errorCodes } from '#shared/contracts/error-codes.ts';
import {
  LICENCE_PAGE_CODE_PATH,
  LICENCE_PAGE_SIGN_IN_PATH,
  licencePageMessages,
  signInCodeRequestSchema,
  signInRequestSchema,
} from '#shared/contracts/licence-page.ts';
import { apiFetch, readErrorCode } from '#app/http/api-fetch.ts';
import formStyles from '../forms/Forms.module.css';
import { Alert } from '../ui/Alert.tsx';
import styles from './LicencePage.module.css';

type Step = { kind: 'address'; emailAddress: string } | { kind: 'code'; emailAddress: string };

/**
 * Sign in to the licence page (decision 229): an address, then the 6-digit code e-mailed to it.
 * The first answer is the same for every address; the page's session cookie is set by the
 * code's answer. Calls go to the page's own origin, where the cookie must live.
 */
export function SignInPanel() {
  const revalidator = useRevalidator();
  const [step, setStep] = useState<Step>({ kind: 'address', emailAddress: '' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const emailId = useId();
  const codeId = useId();
  const errorId = useId();
  const codeRef = useRef<HTMLInputElement>(null);

  async function post(path: string, body: unknown): Promise<Response | undefined> {
    setBusy(true);
    setError(null);
    try {
      return await apiFetch(path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    } catch {
      setError(licencePageMessages.failed);
      return undefined;
    } finally {
      setBusy(false);
    }
  }

  async function requestCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Read from the form, not from state: what was typed before hydration counts too.
    const emailAddress = new FormData(event.currentTarget).get('email');
    const parsed = signInCodeRequestSchema.safeParse({
      emailAddress: typeof emailAddress === 'string' ? emailAddress.trim() : '',
    });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Check the address.');
    const response = await post(LICENCE_PAGE_CODE_PATH, parsed.data);
    if (!response) return;
    if (response.status !== 202) {
      const code = await readErrorCode(response);
      return setError(
        code === errorCodes.tooManyRequests
          ? 'Too many codes were requested. Please try again in an hour.'
          : licencePageMessages.failed,
      );
    }
    setStep({ kind: 'code', emailAddress: parsed.data.emailAddress });
    setTimeout(() => codeRef.current?.focus(), 0);
  }

  async function signIn(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (step.kind !== 'code') return;
    const code = new FormData(event.currentTarget).get('code');
    const parsed = signInRequestSchema.safeParse({ emailAddress: step.emailAddress, code });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Check the code.');
    const response = await post(LICENCE_PAGE_SIGN_IN_PATH, parsed.data);
    if (!response) return;
    if (response.ok) return void revalidator.revalidate();
    const errorCode = await readErrorCode(response);
    setError(
      errorCode === errorCodes.signInCodeInvalid
        ? licencePageMessages.codeInvalid
        : errorCode === errorCodes.tooManyRequests
          ? 'Too many tries. Please wait a while and ask for a new code.'
          : licencePageMessages.failed,
    );
  }

  const errorAlert = error ? (
    <div id={errorId}>
      <Alert tone="danger">{error}</Alert>
    </div>
  ) : null;

  if (step.kind === 'code') {
    return (
      <div className={styles.panel}>
        <Alert tone="info">{licencePageMessages.codeSent}</Alert>
        <form className={formStyles.form} onSubmit={(event) => void signIn(event)} noValidate>
          <div className={formStyles.field}>
            <label className={formStyles.label} htmlFor={codeId}>
              Sign-in code
            </label>
            <input
              ref={codeRef}
              id={codeId}
              className={formStyles.control}
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]{6}"
              maxLength={6}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
            />
          </div>
          {errorAlert}
          <div className={styles.bar}>
            <button
              type="submit"
              className="button button-primary"
              disabled={busy}
              aria-busy={busy}
            >
              Sign in
            </button>
            <button
              type="button"
              className="button button-secondary"
              onClick={() => {
                setStep({ kind: 'address', emailAddress: step.emailAddress });
                setError(null);
              }}
            >
              Use another address
            </button>
          </div>
        </form>
      </div>
    );
  }

  return (
    <div className={styles.panel}>
      <p>
        Enter the e-mail address your licence was issued to. If it holds a licence, we e-mail it a
        sign-in code and a link; nothing to remember, no password.
      </p>
      <form className={formStyles.form} onSubmit={(event) => void requestCode(event)} noValidate>
        <div className={formStyles.field}>
          <label className={formStyles.label} htmlFor={emailId}>
            E-mail address
          </label>
          <input
            id={emailId}
            className={formStyles.control}
            type="email"
            name="email"
            autoComplete="email"
            defaultValue={step.emailAddress}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
          />
        </div>
        {errorAlert}
        <p>
          <button type="submit" className="button button-primary" disabled={busy} aria-busy={busy}>
            E-mail me a code
          </button>
        </p>
      </form>
    </div>
  );
}
