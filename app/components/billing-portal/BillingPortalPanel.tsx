import { useEffect, useRef, useState } from 'react';
import { useRouteLoaderData } from 'react-router';
import {
  OPEN_BILLING_PORTAL_PATH,
  openBillingPortalResponseSchema,
  portalLinkMessages,
  type PortalLinkStatus,
} from '#shared/contracts/billing-portal.ts';
import { failureMessages, portalLinkNotices } from '#shared/contracts/messages.ts';
import { apiFetch } from '#app/http/api-fetch.ts';
import { isSafeRedirect } from '#app/http/is-safe-redirect.ts';
import type { RootData } from '#app/root-data.ts';
import { ModalLink } from '../dialogs/ModalLink.tsx';
import { Alert } from '../ui/Alert.tsx';
import styles from './BillingPortalPanel.module.css';

type State = { kind: 'idle' } | { kind: 'opening' } | { kind: 'used' } | { kind: 'error' };

function RequestLink() {
  return (
    <ModalLink modal="portal-access" className="button button-secondary">
      {portalLinkMessages.requestLink}
    </ModalLink>
  );
}

/**
 * The page behind the billing-portal e-mail's link: one click opens the portal (a button, not
 * the link itself, so mail scanners that open links use nothing; decision 123).
 */
export function BillingPortalPanel({
  status,
  token,
}: {
  status: PortalLinkStatus;
  token: string | null;
}) {
  const root = useRouteLoaderData<RootData>('root');
  const accountApiUrl = root?.accountApiUrl ?? '';
  const [state, setState] = useState<State>({ kind: 'idle' });
  const abortRef = useRef<AbortController | null>(null);
  useEffect(() => () => abortRef.current?.abort(), []);

  if (status.state === 'missing' || !token) {
    return (
      <div className={styles.panel}>
        <p>{portalLinkMessages.missing}</p>
        <RequestLink />
      </div>
    );
  }
  if (status.state === 'invalid' || state.kind === 'used') {
    return (
      <div className={styles.panel}>
        <Alert tone="info">{portalLinkNotices.expired}</Alert>
        <RequestLink />
      </div>
    );
  }

  async function open(linkToken: string) {
    const controller = new AbortController();
    abortRef.current = controller;
    setState({ kind: 'opening' });
    try {
      const response = await apiFetch(`${accountApiUrl}${OPEN_BILLING_PORTAL_PATH}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token: linkToken }),
        signal: controller.signal,
        trustedBase: accountApiUrl,
      });
      const body = openBillingPortalResponseSchema.safeParse(
        response.ok ? await response.json() : undefined,
      );
      if (body.success && isSafeRedirect(body.data.url)) {
        window.location.assign(body.data.url);
        return;
      }
      // 410: used or expired meanwhile (another tab, a second click): say so and offer a new one.
      setState(response.status === 410 ? { kind: 'used' } : { kind: 'error' });
    } catch {
      if (!controller.signal.aborted) setState({ kind: 'error' });
    }
  }

  return (
    <div className={styles.panel}>
      <p>{portalLinkMessages.intro}</p>
      <p className={styles.subscription}>{status.subscription}</p>
      <p>{portalLinkMessages.expires(status.validUntil)}</p>
      <button
        type="button"
        className="button button-primary"
        onClick={() => void open(token)}
        disabled={state.kind === 'opening'}
        aria-busy={state.kind === 'opening'}
      >
        {state.kind === 'opening' ? portalLinkMessages.opening : portalLinkMessages.button}
      </button>
      {state.kind === 'error' ? <Alert tone="danger">{failureMessages.billing}</Alert> : null}
    </div>
  );
}
