import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import {
  LICENCE_PAGE,
  LICENCE_PAGE_SIGN_IN_LINK_PATH,
  licencePageMessages,
} from '#shared/contracts/licence-page.ts';
import { Alert } from '../components/ui/Alert.tsx';
import { apiFetch } from '../http/api-fetch.ts';
import { perVisitHeaders } from '../http/per-visit-headers.ts';
import { pages } from '../pages.ts';
import { metaFor } from '../root-data.ts';

export const meta = metaFor(pages.licencesContinue);

/** Reached by the link of the sign-in e-mail: the token in the URL is the visitor's own. */
export const headers = perVisitHeaders;

/**
 * Opening the link signs no one in (mail scanners open links); the button's POST does (decision
 * 229), then the licences page shows what the address owns.
 */
export default function LicencesContinuePage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get('token');
  const [state, setState] = useState<'idle' | 'busy' | 'invalid' | 'error'>('idle');

  async function continueSignIn(linkToken: string) {
    setState('busy');
    try {
      const response = await apiFetch(LICENCE_PAGE_SIGN_IN_LINK_PATH, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token: linkToken }),
      });
      if (response.ok) return void (await navigate(LICENCE_PAGE));
      setState(response.status === 410 ? 'invalid' : 'error');
    } catch {
      setState('error');
    }
  }

  const busy = state === 'busy';
  return (
    <section className="container section">
      <h1>{pages.licencesContinue.title}</h1>
      {!token || state === 'invalid' ? (
        <>
          <Alert tone="info">{licencePageMessages.linkInvalid}</Alert>
          <p>
            <Link to={LICENCE_PAGE} className="button button-secondary">
              Go to your licences
            </Link>
          </p>
        </>
      ) : (
        <>
          <p>Press Continue to sign in to the licences of your address for one hour.</p>
          <p>
            <button
              type="button"
              className="button button-primary"
              disabled={busy}
              aria-busy={busy}
              onClick={() => void continueSignIn(token)}
            >
              Continue
            </button>
          </p>
          {state === 'error' ? <Alert tone="danger">{licencePageMessages.failed}</Alert> : null}
        </>
      )}
    </section>
  );
}
