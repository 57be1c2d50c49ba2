import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Notice } from './Notice.tsx';
import { consoleApi, messageOf } from './console-api.ts';
import { consoleMeta } from './console-meta.ts';
import { customerPath } from './customer-path.ts';
import { useConsoleSession } from './layout.tsx';
import styles from './Console.module.css';

export const meta = () => consoleMeta('Customers');

/** The search's own limit (customer-search-repository.ts `SEARCH_MAX_LENGTH`). */
const MAX_QUERY = 200;

interface Hit {
  customer: string;
  email: string;
  matched: string;
}

type Result =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'done'; kind: string; hits: Hit[] }
  | { state: 'failed'; message: string };

/**
 * The one search box (issue 40, decision 227): an address, a key, an org id, a number, a
 * provider's id or the start of a company name; each customer found links to their story.
 * The text lives in the address (`?q=`), so a search can be shared, reloaded and gone back to.
 */
export default function ConsoleCustomers() {
  const session = useConsoleSession();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const q = (params.get('q') ?? '').trim();
  const [answer, setAnswer] = useState<{ q: string; result: Result } | null>(null);
  const [emptyTried, setEmptyTried] = useState(false);
  const tooLong = q.length > MAX_QUERY;

  useEffect(() => {
    if (!q || tooLong) return;
    let current = true;
    const settle = (result: Result) => {
      if (current) setAnswer({ q, result });
    };
    void consoleApi(`customers?${new URLSearchParams({ q }).toString()}`)
      .then((reply) => {
        if (reply.status === 401) window.location.assign('/console/sign-in');
        else if (reply.status !== 200)
          settle({ state: 'failed', message: messageOf(reply, 'The search did not answer.') });
        else settle({ state: 'done', ...(reply.body as { kind: string; hits: Hit[] }) });
      })
      .catch(() => settle({ state: 'failed', message: 'The console did not answer. Try again.' }));
    return () => {
      current = false;
    };
  }, [q, tooLong]);

  const result: Result = emptyTried
    ? {
        state: 'failed',
        message: 'Type what the ticket names: an address, a key, an org id, a number or a company.',
      }
    : !q
      ? { state: 'idle' }
      : tooLong
        ? {
            state: 'failed',
            message: `That is longer than anything the search reads (${MAX_QUERY} characters).`,
          }
        : answer?.q === q
          ? answer.result
          : { state: 'loading' };

  if (!session) return null;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next = String(new FormData(event.currentTarget).get('q') ?? '').trim();
    setEmptyTried(!next);
    if (next) void navigate(`/console/customers?${new URLSearchParams({ q: next }).toString()}`);
  }

  return (
    <>
      <h1>Customers</h1>
      <section className={styles.card} aria-labelledby="search-title">
        <h2 id="search-title">Find a customer</h2>
        <form role="search" className={styles.searchForm} onSubmit={submit} noValidate>
          <div className={styles.field}>
            <label htmlFor="customer-search">Search</label>
            <input
              id="customer-search"
              name="q"
              type="search"
              className={styles.control}
              autoComplete="off"
              spellCheck={false}
              maxLength={MAX_QUERY}
              aria-describedby="customer-search-hint"
              // A new search in the address (back, a link) shows its own text.
              key={q}
              defaultValue={q}
            />
          </div>
          <button type="submit" className="button button-primary">
            Search
          </button>
        </form>
        <p id="customer-search-hint" className={styles.muted}>
          An e-mail address in any spelling, a full licence key, a licence id, a Salesforce org id,
          a quote, invoice, credit note or order number, a Stripe customer or subscription id, or
          the first letters of a company name.
        </p>
      </section>
      <section className={styles.card} aria-labelledby="results-title" aria-live="polite">
        <h2 id="results-title">Results</h2>
        <SearchResult result={result} q={q} />
      </section>
    </>
  );
}

function SearchResult({ result, q }: { result: Result; q: string }) {
  switch (result.state) {
    case 'idle':
      return <p className={styles.muted}>Nothing searched yet.</p>;
    case 'loading':
      return <p>Searching…</p>;
    case 'failed':
      return <Notice tone="danger">{result.message}</Notice>;
    case 'done':
      if (result.hits.length === 0) {
        return (
          <p>
            Nothing found for <strong>{q}</strong> (read as {result.kind}). A key must be complete;
            a company name matches from its first letters.
          </p>
        );
      }
      return (
        <>
          <p className={styles.muted}>
            Read as {result.kind}: {result.hits.length}{' '}
            {result.hits.length === 1 ? 'customer' : 'customers'}.
          </p>
          <ul className={styles.hits}>
            {result.hits.map((hit) => (
              <li key={hit.customer}>
                <Link to={customerPath(hit.customer)}>{hit.email}</Link>
                <span className={styles.muted}> — {hit.matched}</span>
              </li>
            ))}
          </ul>
        </>
      );
  }
}
