import { useState } from 'react';
import { useRevalidator } from 'react-router';
import {
  LICENCE_PAGE_RELEASE_ORG_PATH,
  LICENCE_PAGE_SIGN_OUT_PATH,
  licencePageMessages,
  licencePageReleasedSchema,
  type LicencePageLicence,
  type LicencePageView,
} from '#shared/contracts/licence-page.ts';
import { apiFetch } from '#app/http/api-fetch.ts';
import { Alert } from '../ui/Alert.tsx';
import { LicenceBilling, LicenceKeys, type PagePost } from './KeysAndBilling.tsx';
import styles from './LicencePage.module.css';

/** The customer's own way to send a change: to the account service, with the CSRF token. */
const customerPost: PagePost = (path, body) =>
  apiFetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : '—');

const documentKinds = {
  invoice: 'Invoice',
  receipt: 'Receipt',
  credit_note: 'Credit note',
  quote: 'Quote',
} as const;

type Notice = { tone: 'success' | 'danger'; text: string } | null;

async function errorMessage(response: Response): Promise<string> {
  try {
    const body: unknown = await response.json();
    const message = typeof body === 'object' && body !== null ? Reflect.get(body, 'message') : null;
    return typeof message === 'string' ? message : licencePageMessages.failed;
  } catch {
    return licencePageMessages.failed;
  }
}

function Licence({
  licence,
  onRelease,
  busy,
  post,
  onChanged,
}: {
  licence: LicencePageLicence;
  onRelease: (licenceId: string, orgId: string) => void;
  busy: boolean;
  post: PagePost;
  onChanged: () => Promise<void>;
}) {
  const inUse = licence.orgs.filter((org) => org.inUse);
  return (
    <article className={styles.licence} aria-labelledby={`licence-${licence.id}`}>
      <h3 id={`licence-${licence.id}`}>
        {licence.edition} · {licence.type} · key {licence.maskedKey}
      </h3>
      <dl className={styles.facts}>
        <dt>Status</dt>
        <dd>{licence.state}</dd>
        {licence.renewsAt ? (
          <>
            <dt>Renews</dt>
            <dd>{day(licence.renewsAt)}</dd>
          </>
        ) : (
          <>
            <dt>Expires</dt>
            <dd>{licence.expiresAt ? day(licence.expiresAt) : 'never'}</dd>
          </>
        )}
        <dt>Orgs</dt>
        <dd>
          {licence.orgsInUse} in use of{' '}
          {licence.orgLimit === 'unlimited' ? 'unlimited' : licence.orgLimit}
        </dd>
      </dl>
      {inUse.length > 0 ? (
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <caption className="visually-hidden">Orgs using this licence</caption>
            <thead>
              <tr>
                <th scope="col">Org id</th>
                <th scope="col">First seen</th>
                <th scope="col">Last seen</th>
                <th scope="col">Counts until</th>
                <th scope="col">
                  <span className="visually-hidden">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {inUse.map((org) => (
                <tr key={org.orgId}>
                  <td className={styles.orgId}>{org.orgId}</td>
                  <td>{day(org.firstSeenAt)}</td>
                  <td>{day(org.lastSeenAt)}</td>
                  <td>{day(org.countsUntil)}</td>
                  <td>
                    <button
                      type="button"
                      className="button button-secondary"
                      disabled={busy}
                      aria-label={`Release org ${org.orgId}`}
                      onClick={() => onRelease(licence.id, org.orgId)}
                    >
                      Release
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p>No org has used this licence in the last 30 days.</p>
      )}
      <LicenceKeys licence={licence} post={post} onChanged={onChanged} />
      <LicenceBilling licence={licence} post={post} onChanged={onChanged} />
    </article>
  );
}

/** Who is looking, when an operator views the page as the customer (decision 236). */
export interface ViewAsBanner {
  address: string;
  expiresAt: string;
  reason: string;
  onEnd: () => void;
}

/**
 * The signed-in licence page (decisions 229, 236): licences, their orgs, keys and tokens,
 * billing, documents, sign-out. In the console's view as customer, `post` refuses every change
 * and a banner says so.
 */
export function LicencesView({
  view,
  post = customerPost,
  viewAs,
}: {
  view: LicencePageView;
  post?: PagePost;
  viewAs?: ViewAsBanner;
}) {
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);

  async function release(licenceId: string, orgId: string) {
    setBusy(true);
    setNotice(null);
    try {
      const response = await post(LICENCE_PAGE_RELEASE_ORG_PATH, { licenceId, orgId });
      if (response.ok) {
        const released = licencePageReleasedSchema.parse(await response.json());
        setNotice({
          tone: 'success',
          text: `Org ${released.orgId} was released: its slot is free now. ${released.releasesLeft} more ${released.releasesLeft === 1 ? 'release' : 'releases'} of this licence possible in ${view.releaseWindowDays} days.`,
        });
      } else {
        setNotice({ tone: 'danger', text: await errorMessage(response) });
      }
      await revalidator.revalidate();
    } catch {
      setNotice({ tone: 'danger', text: licencePageMessages.failed });
    } finally {
      setBusy(false);
    }
  }

  async function signOut() {
    setBusy(true);
    try {
      await apiFetch(LICENCE_PAGE_SIGN_OUT_PATH, { method: 'POST' });
      await revalidator.revalidate();
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className={styles.panel}>
      {viewAs ? (
        <div className={styles.banner} role="status">
          <p>
            <strong>Read-only view as {viewAs.address}</strong> until{' '}
            {viewAs.expiresAt.slice(11, 16)} UTC (reason: {viewAs.reason}). Every button here is
            refused; nothing can be changed.
          </p>
          <button type="button" className="button button-secondary" onClick={viewAs.onEnd}>
            End view
          </button>
        </div>
      ) : null}
      <div className={styles.bar} hidden={Boolean(viewAs)}>
        <p>
          Signed in as <strong>{view.email}</strong> until {view.sessionExpiresAt.slice(11, 16)}{' '}
          UTC.
        </p>
        <button
          type="button"
          className="button button-secondary"
          disabled={busy}
          onClick={() => void signOut()}
        >
          Sign out
        </button>
      </div>
      <h2>Licences</h2>
      <p>
        A refreshed sandbox comes back with a new org id while the old one keeps its slot for 30
        days. Release the old id to free its slot at once: up to {view.releasesPerWindow} releases
        per licence in {view.releaseWindowDays} days, then write to support.
      </p>
      {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}
      {view.licences.length === 0 ? <p>No licence is issued to this address.</p> : null}
      {view.licences.map((licence) => (
        <Licence
          key={licence.id}
          licence={licence}
          busy={busy}
          post={post}
          onChanged={async () => {
            await revalidator.revalidate();
          }}
          onRelease={(licenceId, orgId) => void release(licenceId, orgId)}
        />
      ))}
      <h2>Documents</h2>
      {view.documents.length === 0 ? (
        <p>No invoices, receipts, credit notes or quotes yet.</p>
      ) : (
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <caption className="visually-hidden">Documents, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Document</th>
                <th scope="col">Date</th>
                <th scope="col">Amount</th>
              </tr>
            </thead>
            <tbody>
              {view.documents.map((document) => (
                <tr key={`${document.kind}-${document.number}`}>
                  <td>
                    {documentKinds[document.kind]}{' '}
                    {document.pdfUrl ? (
                      <a href={document.pdfUrl}>{document.number} (PDF)</a>
                    ) : (
                      document.number
                    )}
                  </td>
                  <td>{document.issuedOn}</td>
                  <td>
                    {(document.amountMinor / 100).toFixed(2)} {document.currency}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
