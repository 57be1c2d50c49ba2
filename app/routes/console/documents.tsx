import { useEffect, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { formatCents } from '#shared/pricing/format-price.ts';
import type { Currency } from '#shared/pricing/price-config.ts';
import { CONSOLE_API } from '#shared/console/paths.ts';
import { Notice } from './Notice.tsx';
import { consoleApi, messageOf } from './console-api.ts';
import { consoleMeta } from './console-meta.ts';
import { can, useConsoleSession } from './layout.tsx';
import styles from './Console.module.css';
import finance from './Finance.module.css';

export const meta = () => consoleMeta('Documents');

type Kind = 'invoice' | 'receipt' | 'credit_note';

/** A month's documents as `GET /console/api/documents?month=…` answers (decision 233). */
interface DocumentsOfMonth {
  month: string;
  documents: Array<{
    number: string;
    kind: Kind;
    issuedOn: string;
    customer: string;
    currency: Currency;
    netMinor: number;
    vatMinor: number;
    grossMinor: number;
    status: string;
  }>;
  totals: Array<{
    currency: Currency;
    documents: number;
    netMinor: number;
    vatMinor: number;
    grossMinor: number;
  }>;
  totalsByKind: Array<{
    currency: Currency;
    kind: Kind;
    documents: number;
    netMinor: number;
    vatMinor: number;
    grossMinor: number;
  }>;
}

const kindLabels: Record<Kind, string> = {
  invoice: 'Invoice',
  receipt: 'Receipt',
  credit_note: 'Credit note',
};

const MONTH = /^(19|20)\d\d-(0[1-9]|1[0-2])$/;

/** This month in UTC, `YYYY-MM`. */
const thisMonth = () => new Date().toISOString().slice(0, 7);

/** The books of a month (decision 221) in the console: the list, totals, and the exports. */
export default function ConsoleDocuments() {
  const session = useConsoleSession();
  const id = useId();
  const [params, setParams] = useSearchParams();
  const asked = params.get('month') ?? '';
  const month = MONTH.test(asked) ? asked : thisMonth();
  // What was read last, and for which month: another month shows "Loading…" until it is read.
  const [read, setRead] = useState<{
    month: string;
    data: DocumentsOfMonth | null;
    error: string | null;
  } | null>(null);
  const allowed = can(session, 'billing.read');

  useEffect(() => {
    if (!allowed) return;
    let current = true;
    void consoleApi(`documents?month=${month}`).then((answer) => {
      if (!current) return;
      if (answer.status === 401) window.location.assign('/console/sign-in');
      else if (answer.status !== 200)
        setRead({
          month,
          data: null,
          error: messageOf(answer, 'The documents could not be read.'),
        });
      else setRead({ month, data: answer.body as DocumentsOfMonth, error: null });
    });
    return () => {
      current = false;
    };
  }, [allowed, month]);

  const data = read?.month === month ? read.data : null;
  const loadError = read?.month === month ? read.error : null;
  if (!session) return null;
  if (!allowed) {
    return (
      <>
        <h1>Documents</h1>
        <Notice tone="info">
          Your role ({session.operator.role}) does not see billing records.
        </Notice>
      </>
    );
  }
  const money = (minor: number, currency: Currency) => formatCents(minor, currency);
  return (
    <>
      <h1>Documents</h1>
      <section className={styles.card} aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`} className="visually-hidden">
          Month and exports
        </h2>
        <div className={finance.toolbar}>
          <div className={styles.field}>
            <label htmlFor={`${id}-month`}>Month issued</label>
            <input
              id={`${id}-month`}
              className={styles.control}
              type="month"
              value={month}
              onChange={(event) => {
                if (MONTH.test(event.target.value)) setParams({ month: event.target.value });
              }}
            />
          </div>
          <a
            className="button button-secondary"
            href={`${CONSOLE_API}/documents/books.csv?month=${month}`}
            download
          >
            Download CSV
          </a>
          <a
            className="button button-secondary"
            href={`${CONSOLE_API}/documents/books.zip?month=${month}`}
            download
          >
            Download ZIP (PDFs and CSVs)
          </a>
        </div>
        <p className={styles.muted}>
          The books of the month: a credit note counts negative. The CSV and the ZIP are what{' '}
          <code>documents export</code> writes for the accountant.
        </p>
      </section>
      {loadError ? <Notice tone="danger">{loadError}</Notice> : null}
      {data === null && !loadError ? <p aria-live="polite">Loading…</p> : null}
      {data ? (
        <>
          <section className={styles.card} aria-labelledby={`${id}-totals`}>
            <h2 id={`${id}-totals`}>Totals</h2>
            {data.totals.length === 0 ? (
              <p>No documents were issued in {data.month}.</p>
            ) : (
              <div className={styles.tableWrap}>
                <table className={styles.table}>
                  <caption className="visually-hidden">Totals per currency and kind</caption>
                  <thead>
                    <tr>
                      <th scope="col">Currency</th>
                      <th scope="col">Kind</th>
                      <th scope="col" className={finance.number}>
                        Documents
                      </th>
                      <th scope="col" className={finance.number}>
                        Net
                      </th>
                      <th scope="col" className={finance.number}>
                        VAT
                      </th>
                      <th scope="col" className={finance.number}>
                        Gross
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.totals.flatMap((total) => [
                      ...data.totalsByKind
                        .filter((row) => row.currency === total.currency)
                        .map((row) => (
                          <tr key={`${row.currency}-${row.kind}`}>
                            <td>{row.currency}</td>
                            <td>{kindLabels[row.kind]}s</td>
                            <td className={finance.number}>{row.documents}</td>
                            <td className={finance.number}>{money(row.netMinor, row.currency)}</td>
                            <td className={finance.number}>{money(row.vatMinor, row.currency)}</td>
                            <td className={finance.number}>
                              {money(row.grossMinor, row.currency)}
                            </td>
                          </tr>
                        )),
                      <tr key={`${total.currency}-all`}>
                        <th scope="row">{total.currency}</th>
                        <th scope="row">All</th>
                        <td className={finance.number}>{total.documents}</td>
                        <td className={finance.number}>
                          <strong>{money(total.netMinor, total.currency)}</strong>
                        </td>
                        <td className={finance.number}>
                          <strong>{money(total.vatMinor, total.currency)}</strong>
                        </td>
                        <td className={finance.number}>
                          <strong>{money(total.grossMinor, total.currency)}</strong>
                        </td>
                      </tr>,
                    ])}
                  </tbody>
                </table>
              </div>
            )}
          </section>
          {data.documents.length > 0 ? (
            <section className={styles.card} aria-labelledby={`${id}-list`}>
              <h2 id={`${id}-list`}>Issued in {data.month}</h2>
              <div className={styles.tableWrap}>
                <table className={styles.table}>
                  <caption className="visually-hidden">Documents issued in {data.month}</caption>
                  <thead>
                    <tr>
                      <th scope="col">Number</th>
                      <th scope="col">Kind</th>
                      <th scope="col">Date</th>
                      <th scope="col">Customer</th>
                      <th scope="col" className={finance.number}>
                        Net
                      </th>
                      <th scope="col" className={finance.number}>
                        VAT
                      </th>
                      <th scope="col" className={finance.number}>
                        Gross
                      </th>
                      <th scope="col">Currency</th>
                      <th scope="col">Status</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.documents.map((row) => (
                      <tr key={row.number}>
                        <td>
                          <a
                            href={`${CONSOLE_API}/documents/${row.number}/pdf`}
                            target="_blank"
                            rel="noreferrer"
                          >
                            {row.number}
                            <span className="visually-hidden"> (PDF)</span>
                          </a>
                        </td>
                        <td>{kindLabels[row.kind]}</td>
                        <td>{row.issuedOn}</td>
                        <td>{row.customer}</td>
                        <td className={finance.number}>{money(row.netMinor, row.currency)}</td>
                        <td className={finance.number}>{money(row.vatMinor, row.currency)}</td>
                        <td className={finance.number}>{money(row.grossMinor, row.currency)}</td>
                        <td>{row.currency}</td>
                        <td>{row.status}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </section>
          ) : null}
        </>
      ) : null}
    </>
  );
}
