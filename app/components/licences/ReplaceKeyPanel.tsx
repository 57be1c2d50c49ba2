import { useEffect, useId, useRef, useState } from 'react';
import { useRouteLoaderData } from 'react-router';
import { failureMessages } from '#shared/contracts/messages.ts';
import {
  keyReplacedSchema,
  lostKeyMessages,
  REPLACE_KEY_PATH,
  REPLACE_KEY_TOKENS_PATH,
  replaceKeyTokensSchema,
  type ReplaceableToken,
} from '#shared/contracts/licence-recovery.ts';
import { apiFetch } from '#app/http/api-fetch.ts';
import type { RootData } from '#app/root-data.ts';
import { SuccessView } from '../forms/SuccessView.tsx';
import { Alert } from '../ui/Alert.tsx';
import { LostKeyForm } from './LostKeyForm.tsx';
import styles from './ReplaceKeyPanel.module.css';

type State =
  | { kind: 'loading' }
  | { kind: 'ready'; tokens: ReplaceableToken[] }
  | { kind: 'processing'; tokens: ReplaceableToken[] }
  | { kind: 'replaced'; sentTo: string; endedTokens: number; keptTokens: number }
  | { kind: 'linkInvalid' }
  | { kind: 'error'; tokens: ReplaceableToken[] | null };

const day = (iso: string) => iso.slice(0, 10);

/** When a token was made and last used, so its owner can tell a stranger's token from their own. */
function tokenFacts(token: ReplaceableToken): string {
  const used = token.lastUsedAt ? `last used ${day(token.lastUsedAt)}` : 'never used';
  return `ends in ${token.hint} · created ${day(token.createdAt)} · ${used}`;
}

/**
 * The page behind the lost-key e-mail's link: it lists the licence's access tokens, each with a
 * "keep" box unticked by default (decision 212), and one click replaces the key (a button, not
 * the link itself, so mail scanners that open links change nothing).
 */
export function ReplaceKeyPanel({ token }: { token: string | null }) {
  const root = useRouteLoaderData<RootData>('root');
  const accountApiUrl = root?.accountApiUrl ?? '';
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [keep, setKeep] = useState<ReadonlySet<string>>(new Set());
  const abortRef = useRef<AbortController | null>(null);
  const idPrefix = useId();
  useEffect(() => () => abortRef.current?.abort(), []);

  useEffect(() => {
    if (!token) return;
    const controller = new AbortController();
    void (async () => {
      try {
        const response = await apiFetch(`${accountApiUrl}${REPLACE_KEY_TOKENS_PATH}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ token }),
          signal: controller.signal,
          trustedBase: accountApiUrl,
        });
        if (response.status === 410) return setState({ kind: 'linkInvalid' });
        const listed = response.ok
          ? replaceKeyTokensSchema.safeParse(await response.json())
          : undefined;
        setState(
          listed?.success
            ? { kind: 'ready', tokens: listed.data.tokens }
            : { kind: 'error', tokens: null },
        );
      } catch {
        if (!controller.signal.aborted) setState({ kind: 'error', tokens: null });
      }
    })();
    return () => controller.abort();
  }, [token, accountApiUrl]);

  if (!token) return <LostKeyForm />;

  async function replace(tokens: ReplaceableToken[]) {
    const controller = new AbortController();
    abortRef.current = controller;
    setState({ kind: 'processing', tokens });
    try {
      const keepTokenIds = tokens.map((t) => t.id).filter((id) => keep.has(id));
      const response = await apiFetch(`${accountApiUrl}${REPLACE_KEY_PATH}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token, keepTokenIds }),
        signal: controller.signal,
        trustedBase: accountApiUrl,
      });
      if (response.status === 410) return setState({ kind: 'linkInvalid' });
      const replaced = response.ok ? keyReplacedSchema.safeParse(await response.json()) : undefined;
      setState(
        replaced?.success ? { kind: 'replaced', ...replaced.data } : { kind: 'error', tokens },
      );
    } catch {
      if (!controller.signal.aborted) setState({ kind: 'error', tokens });
    }
  }

  function toggle(id: string, kept: boolean) {
    setKeep((current) => {
      const next = new Set(current);
      if (kept) next.add(id);
      else next.delete(id);
      return next;
    });
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
        next={`open the e-mail with your new key and enter it wherever you used the old one. ${lostKeyMessages.tokensReplaced(state.endedTokens, state.keptTokens)}`.trim()}
      />
    );
  }

  const tokens = state.kind === 'loading' ? null : state.tokens;
  const busy = state.kind === 'processing';
  return (
    <div className={styles.panel}>
      <p>
        Your new key will be e-mailed to the address the licence was issued to. The old key stops
        working at once, so update it wherever you use it.
      </p>
      {tokens && tokens.length > 0 ? (
        <fieldset className={styles.tokens} disabled={busy}>
          <legend>{lostKeyMessages.tokensLegend}</legend>
          <p>{lostKeyMessages.tokensIntro}</p>
          <ul className={styles.tokenList}>
            {tokens.map((listed) => {
              const boxId = `${idPrefix}-keep-${listed.id}`;
              return (
                <li key={listed.id}>
                  <input
                    id={boxId}
                    type="checkbox"
                    checked={keep.has(listed.id)}
                    onChange={(event) => toggle(listed.id, event.currentTarget.checked)}
                    aria-describedby={`${boxId}-facts`}
                  />
                  <label htmlFor={boxId}>{lostKeyMessages.keepToken(listed.name)}</label>
                  <span id={`${boxId}-facts`} className={styles.tokenFacts}>
                    {tokenFacts(listed)}
                  </span>
                </li>
              );
            })}
          </ul>
        </fieldset>
      ) : null}
      <button
        type="button"
        className="button button-primary"
        onClick={() => tokens && void replace(tokens)}
        disabled={tokens === null || busy}
        aria-busy={busy || state.kind === 'loading'}
      >
        {busy ? 'Replacing…' : 'Replace my licence key'}
      </button>
      {state.kind === 'error' ? <Alert tone="danger">{failureMessages.licensing}</Alert> : null}
    </div>
  );
}
