/**
 * Junk URLs against the page store (issue 17, item 4): builds, starts the production server with a
 * throwaway embedded database, measures the real pages, sends 5,000 distinct junk URLs 10 at a time
 * (unknown paths, unknown parameters, invalid values of known ones, other spellings of a route,
 * unknown /api, /account/v1 and /assets paths), then measures the real pages again. Prints junk
 * p50/p99 per kind, real pages' p50 before and after, and the server's RSS before and after.
 * Then 700 more junk URLs and the real pages one at a time: the cost of a request without the
 * queueing that ten connections on a busy machine add. Results also go to bench/results/.
 *
 *   npm run bench:junk [-- --skip-build] [--count 5000] [--concurrency 10] [--rounds 20]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  getAll,
  junkUrls,
  percentile,
  realPagePaths,
  residentMb,
  type Answer,
} from '../tests/security/support/junk-urls.ts';
import { buildSite, startProductionServer } from './support/server.ts';

const { values } = parseArgs({
  options: {
    'skip-build': { type: 'boolean', default: false },
    count: { type: 'string', default: '5000' },
    concurrency: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '20' },
  },
});
const count = Number(values.count);
const concurrency = Number(values.concurrency);
const rounds = Number(values.rounds);

const TARGET_JUNK_P50_MS = 5;
const TARGET_RSS_GROWTH_MB = 64;

const ms = (value: number) => Math.round(value * 10) / 10;
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

/** Every real page `rounds` times, shuffled by round so no page always goes first. */
async function measureRealPages(
  baseUrl: string,
  parallel = concurrency,
): Promise<{ p50: number; p99: number }> {
  const real = realPagePaths();
  const paths = Array.from({ length: rounds }, (_, round) =>
    real.map((_, i) => real[(i + round) % real.length] ?? '/'),
  ).flat();
  const answers = await getAll(baseUrl, paths, parallel);
  const failed = answers.filter((answer) => answer.status !== 200);
  if (failed.length > 0)
    throw new Error(`real pages failed: ${failed[0]?.path} ${failed[0]?.status}`);
  const times = answers.map((answer) => answer.ms);
  return { p50: ms(percentile(times, 0.5)), p99: ms(percentile(times, 0.99)) };
}

function statusesOf(answers: readonly Answer[]): string {
  const counts = new Map<number, number>();
  for (const answer of answers) counts.set(answer.status, (counts.get(answer.status) ?? 0) + 1);
  return [...counts].map(([status, n]) => `${status}×${n}`).join(' ');
}

if (!values['skip-build']) buildSite();
const server = await startProductionServer();
const pid = server.pid;
if (pid === undefined) throw new Error('the server has no process id');
try {
  console.log(`Load average before: ${load()}`);
  // Every real page once, so the first measured round finds them stored (as the sitemap warm-up does).
  await getAll(server.baseUrl, realPagePaths(), concurrency);
  const realBefore = await measureRealPages(server.baseUrl);
  const rssBefore = await residentMb(pid);

  const junk = junkUrls(count);
  const started = performance.now();
  const answers = await getAll(
    server.baseUrl,
    junk.map((url) => url.path),
    concurrency,
  );
  const junkSeconds = (performance.now() - started) / 1000;
  const rssAfterJunk = await residentMb(pid);
  const realAfter = await measureRealPages(server.baseUrl);
  const rssAfter = await residentMb(pid);
  // Fresh junk, so a store keyed by the raw URL sees none of it again.
  const oneByOne = await getAll(
    server.baseUrl,
    junkUrls(count + 700)
      .slice(count)
      .map((url) => url.path),
    1,
  );
  const realOneByOne = await measureRealPages(server.baseUrl, 1);

  const kinds = [...new Set(junk.map((url) => url.kind))];
  const rows: Array<Record<string, string | number>> = kinds.map((kind) => {
    const ofKind = answers.filter((_, i) => junk[i]?.kind === kind);
    const times = ofKind.map((answer) => answer.ms);
    return {
      kind,
      requests: ofKind.length,
      'p50 ms': ms(percentile(times, 0.5)),
      'p99 ms': ms(percentile(times, 0.99)),
      statuses: statusesOf(ofKind),
    };
  });
  const times = answers.map((answer) => answer.ms);
  const junkP50 = ms(percentile(times, 0.5));
  const junkP99 = ms(percentile(times, 0.99));
  rows.push({
    kind: 'all junk',
    requests: answers.length,
    'p50 ms': junkP50,
    'p99 ms': junkP99,
    statuses: statusesOf(answers),
  });
  console.table(rows);
  const growth = Math.round(rssAfter - rssBefore);
  const summary = {
    'junk p50 ms': `${junkP50} (target ≤ ${TARGET_JUNK_P50_MS})`,
    'junk p99 ms': junkP99,
    'junk requests/s': Math.round(count / junkSeconds),
    'real pages p50 ms before → after': `${realBefore.p50} → ${realAfter.p50}`,
    'real pages p99 ms before → after': `${realBefore.p99} → ${realAfter.p99}`,
    'RSS MB before → after junk → after': `${Math.round(rssBefore)} → ${Math.round(rssAfterJunk)} → ${Math.round(rssAfter)}`,
    'RSS growth MB': `${growth} (target < ${TARGET_RSS_GROWTH_MB})`,
    'one at a time: junk p50 ms / real pages p50 ms': `${ms(
      percentile(
        oneByOne.map((answer) => answer.ms),
        0.5,
      ),
    )} / ${realOneByOne.p50}`,
  };
  console.table(summary);
  console.log(`Load average after: ${load()}`);

  const directory = path.resolve('bench/results');
  mkdirSync(directory, { recursive: true });
  const file = path.join(
    directory,
    `junk-urls-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
  );
  writeFileSync(
    file,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        count,
        concurrency,
        loadAverage: loadavg(),
        junk: rows,
        realPages: { before: realBefore, after: realAfter, oneAtATime: realOneByOne },
        junkOneAtATimeP50: percentile(
          oneByOne.map((answer) => answer.ms),
          0.5,
        ),
        rssMb: { before: rssBefore, afterJunk: rssAfterJunk, after: rssAfter },
      },
      null,
      2,
    ),
  );
  console.log(`Wrote ${path.relative(process.cwd(), file)}`);
  const met =
    junkP50 <= TARGET_JUNK_P50_MS &&
    realAfter.p50 <= realBefore.p50 * 1.25 + 0.5 &&
    growth < TARGET_RSS_GROWTH_MB;
  console.log(met ? 'Targets met.' : 'Targets NOT met.');
  process.exitCode = met ? 0 : 1;
} finally {
  await server.stop();
}
