import { useEffect, useId, useState, type ReactNode } from 'react';
import { Form, useSearchParams } from 'react-router';
import type {
  DashboardCurrency,
  DashboardView,
  MonthFigures,
  MrrMovement,
} from '#shared/contracts/console-dashboard.ts';
import { formatCents } from '#shared/pricing/format-price.ts';
import { consoleApi, messageOf } from './console-api.ts';
import { Notice } from './Notice.tsx';
import styles from './Console.module.css';
import own from './Dashboard.module.css';

const money = (minor: number, currency: DashboardCurrency) => formatCents(minor, currency);

const monthNames = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
];

/** `2026-11` → `Nov 2026` (no Intl: the console's text is the same everywhere). */
function monthLabel(month: string): string {
  const [year, number] = month.split('-');
  return `${monthNames[Number(number) - 1] ?? number} ${year}`;
}

function percent(part: number, whole: number): string {
  if (whole === 0) return '–';
  return `${Math.round((part / whole) * 1000) / 10} %`;
}

/** The currencies with any MRR in the months shown, in a fixed order. */
function currenciesOf(view: DashboardView): DashboardCurrency[] {
  const seen = new Set(view.months.flatMap((month) => month.mrr.map((row) => row.currency)));
  return (['EUR', 'USD'] as const).filter((currency) => seen.has(currency));
}

function movementOf(month: MonthFigures | undefined, currency: DashboardCurrency) {
  return month?.mrr.find((row) => row.currency === currency);
}

/**
 * A small chart of a series (a line, or bars), drawn in inline SVG: decoration for the eye, its
 * text alternative in `label` and the numbers in the table beside it.
 */
function Chart(props: {
  label: string;
  values: number[];
  kind: 'line' | 'bars';
  first: string;
  last: string;
}) {
  const width = 240;
  const height = 64;
  const max = Math.max(1, ...props.values);
  const n = props.values.length;
  const x = (index: number) => (n <= 1 ? width / 2 : (index / (n - 1)) * width);
  const y = (value: number) => height - 2 - (value / max) * (height - 6);
  let body: ReactNode;
  if (props.kind === 'line') {
    const points = props.values.map((value, index) => `${x(index)},${y(value)}`).join(' ');
    body = (
      <>
        <polygon className={own.area} points={`0,${height} ${points} ${width},${height}`} />
        <polyline className={own.line} points={points} />
      </>
    );
  } else {
    const slot = width / Math.max(1, n);
    body = props.values.map((value, index) => (
      <rect
        key={index}
        className={value > 0 ? own.bar : own.barMuted}
        x={index * slot + slot * 0.15}
        width={slot * 0.7}
        y={value > 0 ? y(value) : height - 2}
        height={value > 0 ? height - y(value) : 2}
      />
    ));
  }
  return (
    <figure style={{ margin: 0 }}>
      <svg
        className={own.chart}
        viewBox={`0 0 ${width} ${height}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={props.label}
      >
        {body}
        <line className={own.axis} x1={0} x2={width} y1={height - 0.5} y2={height - 0.5} />
      </svg>
      <p className={own.range} aria-hidden="true">
        <span>{props.first}</span>
        <span>{props.last}</span>
      </p>
    </figure>
  );
}

function MrrTable({ rows }: { rows: MrrMovement[] }) {
  const line = (label: string, pick: (row: MrrMovement) => number, sign = '') => (
    <tr>
      <th scope="row">{label}</th>
      {rows.map((row) => (
        <td key={row.currency} className={own.numbers}>
          {sign}
          {money(pick(row), row.currency)}
        </td>
      ))}
    </tr>
  );
  const count = (label: string, pick: (row: MrrMovement) => number | string) => (
    <tr>
      <th scope="row">{label}</th>
      {rows.map((row) => (
        <td key={row.currency} className={own.numbers}>
          {pick(row)}
        </td>
      ))}
    </tr>
  );
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table}>
        <caption className="visually-hidden">MRR movements by currency</caption>
        <thead>
          <tr>
            <th scope="col">Movement</th>
            {rows.map((row) => (
              <th key={row.currency} scope="col" className={own.numbers}>
                {row.currency}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {line('MRR at the start', (row) => row.startMinor)}
          {line('New', (row) => row.newMinor, '+ ')}
          {line('Expansion', (row) => row.expansionMinor, '+ ')}
          {line('Contraction', (row) => row.contractionMinor, '− ')}
          {line('Churned', (row) => row.churnedMinor, '− ')}
          <tr className={own.total}>
            <th scope="row">MRR at the end</th>
            {rows.map((row) => (
              <td key={row.currency} className={own.numbers}>
                {money(row.endMinor, row.currency)}
              </td>
            ))}
          </tr>
          {count('Paying subscriptions', (row) => row.payingAtEnd)}
          {count(
            'Subscriptions new · expanded · contracted · churned',
            (row) =>
              `${row.newCount} · ${row.expansionCount} · ${row.contractionCount} · ${row.churnedCount}`,
          )}
        </tbody>
      </table>
    </div>
  );
}

function Trend({ view }: { view: DashboardView }) {
  const first = view.months[0]?.month ?? view.month;
  const firstLabel = monthLabel(first);
  const lastLabel = monthLabel(view.month);
  const currencies = currenciesOf(view);
  const trials = view.months.map((month) => month.trials.started);
  return (
    <section className={styles.card} aria-labelledby="trend">
      <h2 id="trend">The last 12 months</h2>
      <div className={own.charts}>
        {currencies.map((currency) => {
          const values = view.months.map((month) => movementOf(month, currency)?.endMinor ?? 0);
          return (
            <div key={currency}>
              <h3>MRR in {currency}</h3>
              <Chart
                kind="line"
                values={values}
                first={firstLabel}
                last={lastLabel}
                label={`MRR in ${currency} at the end of each month, ${firstLabel} to ${lastLabel}: from ${money(values[0] ?? 0, currency)} to ${money(values.at(-1) ?? 0, currency)}, highest ${money(Math.max(0, ...values), currency)}.`}
              />
            </div>
          );
        })}
        <div>
          <h3>Trials started</h3>
          <Chart
            kind="bars"
            values={trials}
            first={firstLabel}
            last={lastLabel}
            label={`Trials started each month, ${firstLabel} to ${lastLabel}: ${trials.join(', ')}.`}
          />
        </div>
      </div>
      <details className={own.details}>
        <summary>The numbers month by month</summary>
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <caption className="visually-hidden">Trials and MRR month by month</caption>
            <thead>
              <tr>
                <th scope="col">Month</th>
                <th scope="col" className={own.numbers}>
                  Trials
                </th>
                <th scope="col" className={own.numbers}>
                  Converted
                </th>
                {currencies.map((currency) => (
                  <th key={currency} scope="col" className={own.numbers}>
                    MRR {currency}
                  </th>
                ))}
                {currencies.map((currency) => (
                  <th key={`net-${currency}`} scope="col" className={own.numbers}>
                    Change {currency}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {view.months.map((month) => (
                <tr key={month.month}>
                  <th scope="row">{monthLabel(month.month)}</th>
                  <td className={own.numbers}>{month.trials.started}</td>
                  <td className={own.numbers}>{month.trials.converted}</td>
                  {currencies.map((currency) => (
                    <td key={currency} className={own.numbers}>
                      {money(movementOf(month, currency)?.endMinor ?? 0, currency)}
                    </td>
                  ))}
                  {currencies.map((currency) => {
                    const row = movementOf(month, currency);
                    return (
                      <td key={`net-${currency}`} className={own.numbers}>
                        {money((row?.endMinor ?? 0) - (row?.startMinor ?? 0), currency)}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </section>
  );
}

function Figure({ value, label }: { value: ReactNode; label: string }) {
  return (
    <div>
      <p className={own.figure}>{value}</p>
      <p className={own.figureLabel}>{label}</p>
    </div>
  );
}

function Figures({ view }: { view: DashboardView }) {
  const month = view.months.at(-1);
  const trials = month?.trials ?? { started: 0, converted: 0, final: true };
  const licences = view.activePaidLicences;
  const usage = view.usage;
  const orgsToday = usage.at(-1)?.orgs ?? 0;
  const validationsToday = usage.at(-1)?.validations ?? 0;
  const refusedToday = usage.at(-1)?.refused ?? 0;
  const mrr = month?.mrr ?? [];
  return (
    <>
      <div className={own.grid}>
        <section className={`${styles.card} ${own.card}`} aria-labelledby="trials">
          <h2 id="trials">Trials</h2>
          <Figure value={trials.started} label="started this month" />
          <Figure
            value={`${trials.converted} (${percent(trials.converted, trials.started)})`}
            label={`paid within 60 days of their start${trials.final ? '' : ', so far'}`}
          />
        </section>
        <section className={`${styles.card} ${own.card}`} aria-labelledby="licences">
          <h2 id="licences">Active paid licences</h2>
          <Figure
            value={licences.Starter + licences.Pro + licences.Enterprise}
            label={`now: Pro ${licences.Pro}, Enterprise ${licences.Enterprise}${licences.Starter > 0 ? `, Starter ${licences.Starter}` : ''}`}
          />
        </section>
        <section className={`${styles.card} ${own.card}`} aria-labelledby="invoices">
          <h2 id="invoices">Invoices owed</h2>
          {view.invoices.length === 0 ? (
            <Figure value="0" label="open now" />
          ) : (
            view.invoices.map((sum) => (
              <div key={sum.currency}>
                <Figure
                  value={money(sum.openMinor, sum.currency)}
                  label={`${sum.open} open; ${sum.overdue} overdue, ${money(sum.overdueMinor, sum.currency)}`}
                />
              </div>
            ))
          )}
          <p className={styles.muted}>
            Subscriptions paid by invoice with an open invoice: {view.openInvoiceSubscriptions.open}{' '}
            ({view.openInvoiceSubscriptions.overdue} past due).
          </p>
        </section>
        <section className={`${styles.card} ${own.card}`} aria-labelledby="orgs">
          <h2 id="orgs">Orgs in use</h2>
          <Figure value={orgsToday} label={`on ${usage.at(-1)?.day ?? '–'}`} />
          {usage.length > 1 ? (
            <Chart
              kind="bars"
              values={usage.map((day) => day.orgs)}
              first={usage[0]?.day.slice(5) ?? ''}
              last={usage.at(-1)?.day.slice(5) ?? ''}
              label={`Orgs in use per day, ${usage[0]?.day} to ${usage.at(-1)?.day}: ${usage.map((day) => day.orgs).join(', ')}.`}
            />
          ) : null}
        </section>
        <section className={`${styles.card} ${own.card}`} aria-labelledby="validations">
          <h2 id="validations">Licence validations</h2>
          <Figure
            value={validationsToday}
            label={`on ${usage.at(-1)?.day ?? '–'}, ${refusedToday} refused (counted each minute)`}
          />
          {usage.length > 1 ? (
            <Chart
              kind="bars"
              values={usage.map((day) => day.validations)}
              first={usage[0]?.day.slice(5) ?? ''}
              last={usage.at(-1)?.day.slice(5) ?? ''}
              label={`Licence validations per day, ${usage[0]?.day} to ${usage.at(-1)?.day}: ${usage.map((day) => day.validations).join(', ')}.`}
            />
          ) : null}
        </section>
      </div>
      <section className={`${styles.card} ${own.card}`} aria-labelledby="mrr">
        <h2 id="mrr">MRR, {monthLabel(view.month)}</h2>
        <p className={styles.muted}>
          Monthly recurring revenue, net of VAT, a yearly price counted as a twelfth; per currency,
          never converted.
        </p>
        {mrr.length === 0 ? <p>No paying subscriptions this month.</p> : <MrrTable rows={mrr} />}
      </section>
    </>
  );
}

/** The founder's morning figures (decision 234): read-only, for every role. */
export function Dashboard({ thisMonth }: { thisMonth: string }) {
  const id = useId();
  const [params] = useSearchParams();
  const month = params.get('month') ?? thisMonth;
  const [view, setView] = useState<DashboardView | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void consoleApi(`dashboard?month=${encodeURIComponent(month)}`).then((answer) => {
      if (!live) return;
      if (answer.status === 200) {
        setProblem(null);
        setView(answer.body as DashboardView);
      } else {
        setView(null);
        setProblem(messageOf(answer, 'The figures could not be read. Please try again.'));
      }
    });
    return () => {
      live = false;
    };
  }, [month]);

  return (
    <>
      <div className={own.head}>
        <h1>Operator console</h1>
        <Form method="get" className={own.monthForm}>
          <div>
            <label htmlFor={`${id}-month`}>Month</label>
            <input
              id={`${id}-month`}
              className={styles.control}
              type="month"
              name="month"
              defaultValue={month}
              max={thisMonth}
              required
            />
          </div>
          <button type="submit" className="button button-primary">
            Show
          </button>
        </Form>
      </div>
      {problem ? <Notice tone="danger">{problem}</Notice> : null}
      {view ? (
        <>
          <Figures view={view} />
          <Trend view={view} />
        </>
      ) : problem ? null : (
        <p className={styles.muted} role="status">
          Reading the figures…
        </p>
      )}
    </>
  );
}
