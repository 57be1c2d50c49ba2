import { useId, useState, type FormEvent } from 'react';
import {
  BILLING_PORTAL_PAGE,
  changeRequestEditions,
  LICENCE_PAGE_CHANGE_REQUEST_PATH,
  LICENCE_PAGE_CREATE_TOKEN_PATH,
  LICENCE_PAGE_REPLACE_KEY_PATH,
  LICENCE_PAGE_REVOKE_TOKEN_PATH,
  licencePageCreatedTokenSchema,
  licencePageMessages,
  licencePageReplacedKeySchema,
  type LicencePageLicence,
} from '#shared/contracts/licence-page.ts';
import { Alert } from '../ui/Alert.tsx';
import styles from './LicencePage.module.css';

/** How the page sends a change: to the account service, or (viewing as a customer) nowhere. */
export type PagePost = (path: string, body: unknown) => Promise<Response>;

type Notice = { tone: 'success' | 'danger'; text: string } | null;

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : '—');

async function messageOf(response: Response): Promise<string> {
  try {
    const body: unknown = await response.json();
    const message = typeof body === 'object' && body !== null ? Reflect.get(body, 'message') : null;
    return typeof message === 'string' ? message : licencePageMessages.failed;
  } catch {
    return licencePageMessages.failed;
  }
}

/** A secret shown once: the new key or a new token, with what to do with it. */
function ShownOnce({ label, value }: { label: string; value: string }) {
  return (
    <div className={styles.secret} role="status">
      <p>
        <strong>{label}</strong> It is shown this once: copy it now.
      </p>
      <code className={styles.orgId}>{value}</code>
    </div>
  );
}

/** Keys and access tokens of one licence (issue 42 item 4, decision 236). */
export function LicenceKeys({
  licence,
  post,
  onChanged,
}: {
  licence: LicencePageLicence;
  post: PagePost;
  onChanged: () => Promise<void>;
}) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null);
  const [keep, setKeep] = useState<string[]>([]);
  const [confirming, setConfirming] = useState(false);
  const [name, setName] = useState('');

  async function send(path: string, body: unknown, done: (response: Response) => Promise<void>) {
    setBusy(true);
    setNotice(null);
    setSecret(null);
    try {
      const response = await post(path, body);
      if (response.ok) await done(response);
      else setNotice({ tone: 'danger', text: await messageOf(response) });
      await onChanged();
    } catch {
      setNotice({ tone: 'danger', text: licencePageMessages.failed });
    } finally {
      setBusy(false);
    }
  }

  const replace = () =>
    send(
      LICENCE_PAGE_REPLACE_KEY_PATH,
      { licenceId: licence.id, keepTokenIds: keep },
      async (r) => {
        const replaced = licencePageReplacedKeySchema.parse(await r.json());
        setSecret({ label: 'Your new key.', value: replaced.key });
        setNotice({
          tone: 'success',
          text: `The key was replaced and e-mailed to you. The old key stopped working, with ${replaced.endedTokens} access ${replaced.endedTokens === 1 ? 'token' : 'tokens'}; ${replaced.keptTokens} kept.`,
        });
        setConfirming(false);
        setKeep([]);
      },
    );

  const create = (event: FormEvent) => {
    event.preventDefault();
    void send(
      LICENCE_PAGE_CREATE_TOKEN_PATH,
      { licenceId: licence.id, name: name.trim() },
      async (r) => {
        const created = licencePageCreatedTokenSchema.parse(await r.json());
        setSecret({ label: `Your token "${created.name}".`, value: created.token });
        setNotice({ tone: 'success', text: 'The token was created; we e-mailed you about it.' });
        setName('');
      },
    );
  };

  const revoke = (tokenId: string, tokenName: string) =>
    send(LICENCE_PAGE_REVOKE_TOKEN_PATH, { licenceId: licence.id, tokenId }, async () => {
      setNotice({ tone: 'success', text: `Access token "${tokenName}" was revoked.` });
    });

  return (
    <section className={styles.keys} aria-labelledby={`${id}-keys`}>
      <h4 id={`${id}-keys`}>Key and access tokens</h4>
      {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}
      {secret ? <ShownOnce label={secret.label} value={secret.value} /> : null}
      {licence.tokens.length > 0 ? (
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <caption className="visually-hidden">Access tokens of this licence</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {licence.tokens.map((token) => (
                <tr key={token.id}>
                  <td>
                    {token.name} <span className={styles.orgId}>…{token.hint}</span>
                  </td>
                  <td>{day(token.createdAt)}</td>
                  <td>{token.lastUsedAt ? day(token.lastUsedAt) : 'never'}</td>
                  <td>
                    <button
                      type="button"
                      className="button button-secondary"
                      disabled={busy}
                      aria-label={`Revoke token ${token.name}`}
                      onClick={() => void revoke(token.id, token.name)}
                    >
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p>No access tokens. CI systems can use one instead of the key.</p>
      )}
      <form className={styles.inline} onSubmit={create}>
        <label htmlFor={`${id}-name`}>New token’s name</label>
        <input
          id={`${id}-name`}
          name="name"
          required
          maxLength={100}
          placeholder="GitHub Actions"
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <button type="submit" className="button button-secondary" disabled={busy}>
          Create token
        </button>
      </form>
      {confirming ? (
        <fieldset className={styles.confirm}>
          <legend>Replace the key {licence.maskedKey}?</legend>
          <p>
            The old key stops working at once, and so does every access token you do not tick here.
            The new key is shown once and e-mailed to you.
          </p>
          {licence.tokens.map((token) => (
            <label key={token.id} className={styles.check}>
              <input
                type="checkbox"
                checked={keep.includes(token.id)}
                onChange={(event) =>
                  setKeep((current) =>
                    event.target.checked
                      ? [...current, token.id]
                      : current.filter((kept) => kept !== token.id),
                  )
                }
              />{' '}
              Keep “{token.name}”
            </label>
          ))}
          <div className={styles.inline}>
            <button
              type="button"
              className="button button-primary"
              disabled={busy}
              onClick={() => void replace()}
            >
              Replace the key now
            </button>
            <button
              type="button"
              className="button button-secondary"
              disabled={busy}
              onClick={() => setConfirming(false)}
            >
              Cancel
            </button>
          </div>
        </fieldset>
      ) : (
        <button
          type="button"
          className="button button-secondary"
          disabled={busy}
          onClick={() => setConfirming(true)}
        >
          Replace the key…
        </button>
      )}
    </section>
  );
}

const kindLabels = { seats: 'Seats', plan: 'Plan', cancel: 'Cancel the subscription' } as const;

/** Billing of one licence (issue 42 item 6): the card portal, or "Request a change". */
export function LicenceBilling({
  licence,
  post,
  onChanged,
}: {
  licence: LicencePageLicence;
  post: PagePost;
  onChanged: () => Promise<void>;
}) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);
  const [kind, setKind] = useState<'seats' | 'plan' | 'cancel'>('seats');
  const { billing } = licence;
  if (billing.collection === 'none') return null;
  const request = billing.changeRequest;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (key: string) => {
      const value = form.get(key);
      return typeof value === 'string' ? value.trim() : '';
    };
    const body = {
      licenceId: licence.id,
      kind,
      ...(kind === 'seats' ? { seats: Number(text('seats')) } : {}),
      ...(kind === 'plan' ? { edition: text('edition') } : {}),
      ...(text('message') ? { message: text('message') } : {}),
    };
    setBusy(true);
    setNotice(null);
    try {
      const response = await post(LICENCE_PAGE_CHANGE_REQUEST_PATH, body);
      setNotice(
        response.ok
          ? { tone: 'success', text: 'Your request was sent. We will answer by e-mail.' }
          : { tone: 'danger', text: await messageOf(response) },
      );
      await onChanged();
    } catch {
      setNotice({ tone: 'danger', text: licencePageMessages.failed });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby={`${id}-billing`} className={styles.keys}>
      <h4 id={`${id}-billing`}>Billing</h4>
      {billing.collection === 'card' ? (
        <p>
          Paid by card: change seats or plan, update the card or cancel in the{' '}
          <a href={BILLING_PORTAL_PAGE}>billing portal</a>.
        </p>
      ) : (
        <>
          <p>
            Paid by invoice ({billing.edition ?? '—'}, {billing.seats ?? '—'} seats). Ask us for a
            change; we answer by e-mail.
          </p>
          {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}
          {request ? (
            <p>
              Your latest request ({kindLabels[request.kind]}
              {request.seats ? `: ${request.seats}` : ''}
              {request.edition ? `: ${request.edition}` : ''}, {day(request.createdAt)}) is{' '}
              <strong>
                {request.status === 'open' ? 'waiting for our answer' : request.status}
              </strong>
              {request.answerReason ? ` — ${request.answerReason}` : ''}.
            </p>
          ) : null}
          {request?.status === 'open' ? null : (
            <form className={styles.changeForm} onSubmit={(event) => void submit(event)}>
              <fieldset>
                <legend>Request a change</legend>
                <label htmlFor={`${id}-kind`}>What to change</label>
                <select
                  id={`${id}-kind`}
                  value={kind}
                  onChange={(event) => {
                    const value = event.target.value;
                    if (value === 'seats' || value === 'plan' || value === 'cancel') setKind(value);
                  }}
                >
                  <option value="seats">Seats</option>
                  <option value="plan">Plan</option>
                  <option value="cancel">Cancel the subscription</option>
                </select>
                {kind === 'seats' ? (
                  <>
                    <label htmlFor={`${id}-seats`}>Seats</label>
                    <input
                      id={`${id}-seats`}
                      name="seats"
                      type="number"
                      min={1}
                      max={1000}
                      required
                      defaultValue={billing.seats ?? 1}
                    />
                  </>
                ) : null}
                {kind === 'plan' ? (
                  <>
                    <label htmlFor={`${id}-edition`}>Plan</label>
                    <select
                      id={`${id}-edition`}
                      name="edition"
                      defaultValue={billing.edition ?? ''}
                    >
                      {changeRequestEditions.map((edition) => (
                        <option key={edition} value={edition}>
                          {edition}
                        </option>
                      ))}
                    </select>
                  </>
                ) : null}
                <label htmlFor={`${id}-message`}>Message (optional)</label>
                <textarea id={`${id}-message`} name="message" maxLength={1000} rows={2} />
                <button type="submit" className="button button-primary" disabled={busy}>
                  Send request
                </button>
              </fieldset>
            </form>
          )}
        </>
      )}
    </section>
  );
}
