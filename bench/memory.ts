/**
 * Memory of one instance (issue 18, item 5): builds, then on the embedded database and on
 * PostgreSQL starts the production server, times the cold start (process start → `/readyz` 200),
 * reads RSS and heap after the start and again after every page has been served once: every
 * route, every route with each dialog open, every quote the pricing page writes (with and without
 * a dialog), every plan button, the 404 page, the sitemap and robots.txt. Heap figures come from
 * the server's own `/metrics` (a token is set for the run). Results also go to bench/results/.
 *
 *   npm run bench:memory [-- --skip-build] [--database pglite|postgres] [--snapshot]
 *                        [--node-flags="--max-semi-space-size=16"]
 *
 * `--snapshot` writes a heap snapshot of each server after the pages (`--heapsnapshot-signal`)
 * into bench/results/ and prints its largest constructors by retained size. `--node-flags` runs
 * the server with these flags instead of the production ones (`--node-flags=`: node's defaults);
 * the `=` is needed, as the value starts with a dash.
 * PostgreSQL: DATABASE_URL when set, else a throwaway database on 127.0.0.1:5432 (or
 * BENCH_POSTGRES_URL) when reachable.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { pages } from '../app/pages.ts';
import { modalNames } from '../app/components/dialogs/modal-url.ts';
import { quotePath } from '../app/components/pricing/price-selection.ts';
import {
  billingPeriods,
  currencies,
  editions,
  sliderRange,
} from '../shared/pricing/price-config.ts';
import { SERVER_NODE_FLAGS } from '../server/platform/node-flags.ts';
import { getAll, residentMb } from '../tests/security/support/junk-urls.ts';
import { summariseHeapSnapshot } from './support/heap-snapshot.ts';
import { buildSite, startProductionServer, type RunningServer } from './support/server.ts';

const { values } = parseArgs({
  options: {
    'skip-build': { type: 'boolean', default: false },
    database: { type: 'string' },
    snapshot: { type: 'boolean', default: false },
    'node-flags': { type: 'string' },
  },
});

/** Targets of issue 18, item 5: RSS after every page was served once. */
const TARGET_RSS_MB = { pglite: 300, postgres: 150 } as const;
type DatabaseKind = keyof typeof TARGET_RSS_MB;

const postgresAdminUrl =
  process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const metricsToken = randomBytes(24).toString('base64url');
const resultsDir = path.resolve('bench/results');

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

/** Every page the site serves and every variant of one the page store keeps. */
function everyPagePath(): string[] {
  const routes = Object.values(pages).map((page) => page.path);
  const quotes: string[] = [];
  for (let size: number = sliderRange.min; size <= sliderRange.max; size += sliderRange.step) {
    for (const billingPeriod of billingPeriods) {
      for (const currency of currencies) quotes.push(quotePath({ size, billingPeriod, currency }));
    }
  }
  const plans = editions.map((edition) => `${pages.pricing.path}?plan=${edition}`);
  const withDialog = (url: string, modal: string) =>
    `${url}${url.includes('?') ? '&' : '?'}modal=${modal}`;
  const dialogs = [...routes, ...quotes].flatMap((url) =>
    modalNames.map((modal) => withDialog(url, modal)),
  );
  return [
    ...routes,
    ...quotes,
    ...plans,
    ...dialogs,
    '/no-such-page',
    '/sitemap.xml',
    '/robots.txt',
  ];
}

interface Memory {
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
  /** The page store's bodies (`orgsmith_page_store_bytes`). */
  pageStoreMb: number;
}

/** RSS from /proc, the heap as the server's own `/metrics` reports it. */
async function memoryOf(server: RunningServer): Promise<Memory> {
  if (server.pid === undefined) throw new Error('the server has no process id');
  const response = await fetch(`${server.baseUrl}/metrics`, {
    headers: { authorization: `Bearer ${metricsToken}` },
  });
  if (!response.ok) throw new Error(`/metrics answered ${response.status}`);
  const text = await response.text();
  const metric = (name: string) => {
    const value = new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1];
    if (value === undefined) throw new Error(`/metrics has no ${name}`);
    return Number(value);
  };
  return {
    rssMb: Math.round(await residentMb(server.pid)),
    heapUsedMb: mb(metric('nodejs_heap_size_used_bytes')),
    heapTotalMb: mb(metric('nodejs_heap_size_total_bytes')),
    externalMb: mb(metric('nodejs_external_memory_bytes')),
    pageStoreMb: mb(metric('orgsmith_page_store_bytes')),
  };
}

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({
    connectionString: postgresAdminUrl,
    connectionTimeoutMillis: 1500,
  });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** DATABASE_URL as given, else a throwaway database dropped afterwards. */
async function postgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const own = process.env.DATABASE_URL;
  if (own) return { url: own, drop: async () => {} };
  const name = `orgsmith_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresAdminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = new pg.Client({ connectionString: postgresAdminUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

/** Asks the server for a heap snapshot and waits until the file is complete. */
async function takeSnapshot(server: RunningServer, directory: string): Promise<string> {
  const before = new Set(readdirSync(directory));
  process.kill(server.pid ?? 0, 'SIGUSR2');
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const written = readdirSync(directory).find(
      (file) => file.endsWith('.heapsnapshot') && !before.has(file),
    );
    // Node writes the file in place: it is complete once the server answers again.
    if (written && (await fetch(`${server.baseUrl}/healthz`).then((r) => r.ok))) {
      return path.join(directory, written);
    }
  }
  throw new Error('no heap snapshot within 5 minutes');
}

interface Row {
  database: DatabaseKind;
  'cold start ms': number;
  'pages served': number;
  'serving ms': number;
  'RSS MB start → pages': string;
  'heap used MB start → pages': string;
  'heap total MB start → pages': string;
  'external MB start → pages': string;
  'page store MB start → pages': string;
  'RSS target MB': number;
  'within target': boolean;
}

async function measure(database: DatabaseKind): Promise<Row> {
  const postgres = database === 'postgres' ? await postgresDatabase() : undefined;
  const snapshotDir = path.join(resultsDir, `heap-${database}-${Date.now()}`);
  if (values.snapshot) mkdirSync(snapshotDir, { recursive: true });
  const server = await startProductionServer({
    readyPath: '/readyz',
    env: { METRICS_TOKEN: metricsToken, ...(postgres ? { DATABASE_URL: postgres.url } : {}) },
    nodeFlags: [
      ...(values['node-flags'] === undefined
        ? SERVER_NODE_FLAGS
        : values['node-flags'].split(' ').filter(Boolean)),
      ...(values.snapshot
        ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${snapshotDir}`]
        : []),
    ],
  });
  try {
    // The sitemap's pages are warmed in the background right after the start: let that finish.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const started = await memoryOf(server);
    const paths = everyPagePath();
    const servingStarted = performance.now();
    const answers = await getAll(server.baseUrl, paths, 4);
    // Every page is a first render here: a rough measure of speed next to the memory figures.
    const servingMs = performance.now() - servingStarted;
    const failed = answers.filter((answer) => answer.status >= 500);
    if (failed.length > 0) throw new Error(`${failed[0]?.path} answered ${failed[0]?.status}`);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const served = await memoryOf(server);
    if (values.snapshot) {
      const file = await takeSnapshot(server, snapshotDir);
      console.log(`\nHeap snapshot (${database}): ${file}`);
      const summary = await summariseHeapSnapshot(file, 25);
      console.log(`Reachable heap: ${summary.totalMb} MB`);
      console.table(summary.groups);
      console.table(summary.largest);
    }
    const pair = (key: keyof Memory) => `${started[key]} → ${served[key]}`;
    return {
      database,
      'cold start ms': Math.round(server.startMs),
      'pages served': paths.length,
      'serving ms': Math.round(servingMs),
      'RSS MB start → pages': pair('rssMb'),
      'heap used MB start → pages': pair('heapUsedMb'),
      'heap total MB start → pages': pair('heapTotalMb'),
      'external MB start → pages': pair('externalMb'),
      'page store MB start → pages': pair('pageStoreMb'),
      'RSS target MB': TARGET_RSS_MB[database],
      'within target': served.rssMb <= TARGET_RSS_MB[database],
    };
  } finally {
    await server.stop();
    await postgres?.drop();
  }
}

if (!values['skip-build']) buildSite();
const databases: DatabaseKind[] =
  values.database === 'pglite' || values.database === 'postgres'
    ? [values.database]
    : ['pglite', 'postgres'];
console.log(`Load average before: ${load()}`);
const rows: Row[] = [];
for (const database of databases) {
  if (database === 'postgres' && !process.env.DATABASE_URL && !(await postgresReachable())) {
    console.log('PostgreSQL: not reachable on 127.0.0.1:5432 and no DATABASE_URL, skipped');
    continue;
  }
  rows.push(await measure(database));
}
console.table(rows);
console.log(`Load average after: ${load()}`);
mkdirSync(resultsDir, { recursive: true });
const file = path.join(resultsDir, `memory-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(file, `${JSON.stringify({ load: loadavg(), rows }, null, 2)}\n`);
console.log(`Written to ${file}`);
if (rows.some((row) => !row['within target'])) process.exitCode = 1;
