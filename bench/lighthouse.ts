/**
 * Lighthouse on every page of app/pages.ts against the production build: builds, starts the server
 * on a free port, audits each route in Debian's Chromium with Lighthouse's mobile defaults (Moto G
 * emulation, simulated slow 4G), prints scores, LCP, TBT, CLS and JS bytes per route, and writes
 * the full numbers to bench/results/.
 *
 *   npm run bench                       every route
 *   npm run bench -- /pricing /download only these
 *   npm run bench -- --skip-build       reuse build/
 *   npm run bench -- --runs 3           median of three runs per route (for a busy machine)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { pages } from '../app/pages.ts';
import { buildSite, startProductionServer } from './support/server.ts';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const chromiumFlags = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const categories = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

interface RouteResult {
  path: string;
  /** The page asks not to be indexed: SEO leaves out `is-crawlable` (decision 083). */
  noindex: boolean;
  scores: Record<(typeof categories)[number], number | null>;
  lcpMs: number | null;
  tbtMs: number | null;
  cls: number | null;
  jsTransferBytes: number;
  /** Audits below a perfect score in the four categories, for finding what to fix. */
  shortfalls: Array<{ category: string; id: string; title: string; score: number | null }>;
}

/** Chromium through chrome-launcher: its default flags (as Lighthouse's CLI runs), ours, a fresh profile. */
async function launchChromium() {
  const chrome = await launch({
    chromePath: chromiumPath,
    chromeFlags: chromiumFlags,
    logLevel: 'error',
  });
  const exited = new Promise<void>((resolve) => {
    if (chrome.process.exitCode !== null) resolve();
    else chrome.process.once('exit', () => resolve());
  });
  return {
    port: chrome.port,
    async stop() {
      // kill() also removes the profile chrome-launcher made.
      chrome.kill();
      await exited;
    },
  };
}

function numeric(value: number | undefined): number | null {
  return typeof value === 'number' ? value : null;
}

function isScriptRequest(item: unknown): item is { resourceType: string; transferSize: number } {
  return (
    typeof item === 'object' &&
    item !== null &&
    'resourceType' in item &&
    item.resourceType === 'Script' &&
    'transferSize' in item &&
    typeof item.transferSize === 'number'
  );
}

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

/** The audit that fails, by design, on a page marked noindex. */
const crawlableAudit = 'is-crawlable';

/**
 * Lighthouse's SEO score without `is-crawlable`: the same weighted mean over the scored audits.
 * The spec requires noindex on some pages; that audit fails on them by design (decision 083).
 */
function seoScoreWithoutCrawlable(lhr: Lhr): number | null {
  let weighted = 0;
  let weights = 0;
  for (const ref of lhr.categories.seo?.auditRefs ?? []) {
    const result = lhr.audits[ref.id];
    if (ref.id === crawlableAudit || !result || ref.weight === 0) continue;
    if (typeof result.score !== 'number') continue;
    weighted += result.score * ref.weight;
    weights += ref.weight;
  }
  return weights > 0 ? Math.round((weighted / weights) * 100) : null;
}

async function audit(
  url: string,
  routePath: string,
  noindex: boolean,
  port: number,
): Promise<RouteResult> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    formFactor: 'mobile',
    onlyCategories: [...categories],
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.message}`);
  const score = (id: (typeof categories)[number]) => {
    const value = lhr.categories[id]?.score;
    return typeof value === 'number' ? Math.round(value * 100) : null;
  };
  const scores = {
    performance: score('performance'),
    accessibility: score('accessibility'),
    'best-practices': score('best-practices'),
    seo: noindex ? seoScoreWithoutCrawlable(lhr) : score('seo'),
  };
  const requests = lhr.audits['network-requests']?.details;
  const items: unknown[] = requests && 'items' in requests ? requests.items : [];
  const shortfalls: RouteResult['shortfalls'] = [];
  for (const id of categories) {
    for (const ref of lhr.categories[id]?.auditRefs ?? []) {
      const auditResult = lhr.audits[ref.id];
      if (!auditResult || ref.weight === 0) continue;
      if (noindex && ref.id === crawlableAudit) {
        // Expected to fail here; passing would mean the page lost its noindex.
        if (auditResult.score === 1) {
          shortfalls.push({
            category: id,
            id: ref.id,
            title: 'Page is crawlable, but app/pages.ts marks it noindex',
            score: auditResult.score,
          });
        }
        continue;
      }
      const mode = auditResult.scoreDisplayMode;
      if (
        (mode === 'binary' || mode === 'numeric' || mode === 'metricSavings') &&
        auditResult.score !== null &&
        auditResult.score < 1
      ) {
        shortfalls.push({
          category: id,
          id: ref.id,
          title: auditResult.title,
          score: auditResult.score,
        });
      }
    }
  }
  return {
    path: routePath,
    noindex,
    scores,
    lcpMs: numeric(lhr.audits['largest-contentful-paint']?.numericValue),
    tbtMs: numeric(lhr.audits['total-blocking-time']?.numericValue),
    cls: numeric(lhr.audits['cumulative-layout-shift']?.numericValue),
    jsTransferBytes: items
      .filter(isScriptRequest)
      .reduce((sum, item) => sum + item.transferSize, 0),
    shortfalls,
  };
}

/** The run with the median performance score: one busy moment on a shared CPU does not decide. */
function medianRun(attempts: RouteResult[]): RouteResult {
  const sorted = [...attempts].sort(
    (a, b) => (a.scores.performance ?? 0) - (b.scores.performance ?? 0),
  );
  const median = sorted[Math.floor(sorted.length / 2)];
  if (!median) throw new Error('no Lighthouse run');
  return median;
}

function printTable(results: RouteResult[]): void {
  const rows = results.map((r) => ({
    route: r.path,
    perf: r.scores.performance ?? '–',
    a11y: r.scores.accessibility ?? '–',
    'best-pr.': r.scores['best-practices'] ?? '–',
    seo: `${r.scores.seo ?? '–'}${r.noindex ? '¹' : ''}`,
    'LCP ms': r.lcpMs === null ? '–' : Math.round(r.lcpMs),
    'TBT ms': r.tbtMs === null ? '–' : Math.round(r.tbtMs),
    CLS: r.cls === null ? '–' : r.cls.toFixed(3),
    'JS kB': (r.jsTransferBytes / 1024).toFixed(1),
  }));
  const headers = Object.keys(rows[0] ?? {});
  const widths = headers.map((header) =>
    Math.max(
      header.length,
      ...rows.map((row) => String(Object.values(row)[headers.indexOf(header)]).length),
    ),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  ');
  console.log(line(headers));
  console.log(line(widths.map((width) => '-'.repeat(width))));
  for (const row of rows) console.log(line(Object.values(row).map(String)));
  if (results.some((r) => r.noindex)) {
    console.log(
      '¹ noindex page: SEO without is-crawlable, which fails there by design (decision 083)',
    );
  }
  for (const r of results) {
    for (const s of r.shortfalls) {
      console.log(`  ${r.path}: ${s.category} · ${s.id} (${s.score}) ${s.title}`);
    }
  }
}

const { values: options, positionals: only } = parseArgs({
  allowPositionals: true,
  options: {
    'skip-build': { type: 'boolean', default: false },
    runs: { type: 'string', default: '1' },
  },
});
const runs = Number(options.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a positive whole number');
const routes = Object.values(pages)
  .map((page): { path: string; noindex: boolean } => ({
    path: page.path,
    noindex: 'noindex' in page && page.noindex === true,
  }))
  .filter((route) => only.length === 0 || only.includes(route.path));
if (routes.length === 0) throw new Error(`No page of app/pages.ts matches ${only.join(', ')}`);

if (!options['skip-build']) buildSite();
const server = await startProductionServer();
const chromium = await launchChromium();
const results: RouteResult[] = [];
const failed: string[] = [];
try {
  for (const { path: route, noindex } of routes) {
    process.stdout.write(`Lighthouse ${route} … `);
    const attempts: RouteResult[] = [];
    // A run Lighthouse itself reports as broken (e.g. NO_NAVSTART on a busy CPU) is repeated.
    for (let run = 0, failures = 0; run < runs && failures < 3;) {
      try {
        const result = await audit(`${server.baseUrl}${route}`, route, noindex, chromium.port);
        process.stdout.write(`${Object.values(result.scores).join('/')} `);
        attempts.push(result);
        run += 1;
      } catch (error) {
        failures += 1;
        process.stdout.write(`(failed: ${error instanceof Error ? error.message : error}) `);
      }
    }
    console.log('');
    if (attempts.length > 0) results.push(medianRun(attempts));
    else failed.push(route);
  }
} finally {
  await chromium.stop();
  await server.stop();
}

console.log('');
printTable(results);
if (failed.length > 0) {
  console.log(`\nNo result for ${failed.join(', ')}: Lighthouse failed three times.`);
  process.exitCode = 1;
}
const directory = path.resolve('bench/results');
mkdirSync(directory, { recursive: true });
const file = path.join(
  directory,
  `lighthouse-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
);
writeFileSync(
  file,
  JSON.stringify({ date: new Date().toISOString(), formFactor: 'mobile', runs, results }, null, 2),
);
console.log(`\nWrote ${path.relative(process.cwd(), file)}`);
