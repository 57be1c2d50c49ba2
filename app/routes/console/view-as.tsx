import { useEffect, useId, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { licencePageViewSchema, type LicencePageView } from '#shared/contracts/licence-page.ts';
import { LicencesView } from '#app/components/licence-page/LicencesView.tsx';
import { Notice } from './Notice.tsx';
import { consoleApi, messageOf } from './console-api.ts';
import { consoleMeta } from './console-meta.ts';
import { can, useConsoleSession } from './layout.tsx';
import styles from './Console.module.css';

export const meta = () => consoleMeta('View as customer');

interface Viewing {
  viewAs: { id: string; address: string; reason: string; expiresAt: string };
  view: LicencePageView;
}

function StartForm() {
  const id = useId();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function start(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    const answer = await consoleApi('view-as', {
      body: {
        address: String(form.get('address') ?? '').trim(),
        reason: String(form.get('reason') ?? '').trim(),
      },
    });
    setBusy(false);
    if (answer.status !== 201) return setError(messageOf(answer, 'The view could not start.'));
    const started = answer.body as { path: string };
    await navigate(started.path);
  }

  return (
    <section className={styles.card} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Look at a customer’s licence page</h2>
      <p className={styles.muted}>
        Read-only, for 15 minutes, with a reason: the start and the end go into the audit log.
      </p>
      {error ? <Notice tone="danger">{error}</Notice> : null}
      <form onSubmit={(event) => void start(event)}>
        <div className={styles.field}>
          <label htmlFor={`${id}-address`}>Customer’s e-mail address</label>
          <input
            id={`${id}-address`}
            name="address"
            type="email"
            required
            className={styles.control}
          />
        </div>
        <div className={styles.field}>
          <label htmlFor={`${id}-reason`}>Reason</label>
          <input
            id={`${id}-reason`}
            name="reason"
            required
            minLength={3}
            maxLength={300}
            className={styles.control}
          />
        </div>
        <button type="submit" className="button button-primary" disabled={busy}>
          View as customer
        </button>
      </form>
    </section>
  );
}

/**
 * "View as customer" (decision 236): the licence page's own components, on the console's origin,
 * read from `GET /console/api/view-as/:id`; every button of it posts to the view's refusal
 * endpoint (`403 ViewAsReadOnly`), never to the account service.
 */
export default function ViewAsCustomer() {
  const session = useConsoleSession();
  const { id } = useParams();
  const navigate = useNavigate();
  const [viewing, setViewing] = useState<Viewing | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!id) return;
    let live = true;
    void consoleApi(`view-as/${encodeURIComponent(id)}`).then((answer) => {
      if (!live) return;
      if (answer.status !== 200) {
        setViewing(null);
        setError(messageOf(answer, 'This view could not be read.'));
        return;
      }
      const body = answer.body as Viewing;
      setViewing({ viewAs: body.viewAs, view: licencePageViewSchema.parse(body.view) });
    });
    return () => {
      live = false;
    };
  }, [id]);

  if (!session) return null;
  if (!can(session, 'licence.read')) return <p>Your role does not allow licence.read.</p>;
  if (!id) {
    return (
      <>
        <h1>View as customer</h1>
        <StartForm />
      </>
    );
  }
  return (
    <>
      <h1>View as customer</h1>
      {error ? <Notice tone="danger">{error}</Notice> : null}
      {viewing ? (
        <LicencesView
          view={viewing.view}
          viewAs={{
            ...viewing.viewAs,
            onEnd: () => {
              void consoleApi(`view-as/${encodeURIComponent(id)}/end`, { method: 'POST' }).then(
                () => navigate('/console/view-as'),
              );
            },
          }}
          post={(path, body) =>
            fetch(
              `/console/api/view-as/${encodeURIComponent(id)}/actions/${encodeURIComponent(path.split('/').pop() ?? 'action')}`,
              {
                method: 'POST',
                credentials: 'same-origin',
                headers: { 'Content-Type': 'application/json' },
                body: JSON.stringify(body),
              },
            )
          }
        />
      ) : null}
    </>
  );
}
