/**
 * Throughput of the production server: builds, starts it on a free port, and runs autocannon for
 * 10 s each against a server-rendered page, the health check and a static file, printing requests
 * per second and latency percentiles. Results also go to bench/results/.
 *
 *   node bench/autocannon.ts [--skip-build] [--connections 50] [--duration 10] [/path ...]
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { buildSite, startProductionServer } from './support/server.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'skip-build': { type: 'boolean', default: false },
    connections: { type: 'string', default: '50' },
    duration: { type: 'string', default: '10' },
  },
});
const targets = positionals.length > 0 ? positionals : ['/imprint', '/healthz', '/favicon.svg'];

/** The part of autocannon's `--json` report that we print. */
const report = z.object({
  requests: z.object({ average: z.number(), total: z.number() }),
  latency: z.object({ average: z.number(), p50: z.number(), p99: z.number() }),
  throughput: z.object({ average: z.number() }),
  errors: z.number(),
  timeouts: z.number(),
  non2xx: z.number(),
});
type Report = z.infer<typeof report>;

function runAutocannon(url: string): Report {
  // Run autocannon's CLI on our Node 24; its shebang would pick the system's older Node.
  const result = spawnSync(
    process.execPath,
    [
      'node_modules/autocannon/autocannon.js',
      '--json',
      '--connections',
      values.connections,
      '--duration',
      values.duration,
      // As a browser would ask for it: compressed.
      '--headers',
      'accept-encoding=gzip',
      url,
    ],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (result.status !== 0) throw new Error(`autocannon failed: ${result.stderr}`);
  return report.parse(JSON.parse(result.stdout));
}

if (!values['skip-build']) buildSite();
const server = await startProductionServer();
const rows: Array<{ path: string } & Report> = [];
try {
  for (const target of targets) {
    process.stdout.write(
      `autocannon ${target} (${values.duration} s, ${values.connections} connections) … `,
    );
    const result = runAutocannon(`${server.baseUrl}${target}`);
    console.log(`${Math.round(result.requests.average)} req/s`);
    rows.push({ path: target, ...result });
  }
} finally {
  await server.stop();
}

console.log('');
console.table(
  rows.map((row) => ({
    path: row.path,
    'req/s': Math.round(row.requests.average),
    'p50 ms': row.latency.p50,
    'p99 ms': row.latency.p99,
    'avg ms': row.latency.average,
    'MB/s': (row.throughput.average / 1024 / 1024).toFixed(1),
    'non-2xx': row.non2xx,
    errors: row.errors + row.timeouts,
  })),
);
const directory = path.resolve('bench/results');
mkdirSync(directory, { recursive: true });
const file = path.join(
  directory,
  `autocannon-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
);
writeFileSync(
  file,
  JSON.stringify(
    { date: new Date().toISOString(), connections: Number(values.connections), rows },
    null,
    2,
  ),
);
console.log(`Wrote ${path.relative(process.cwd(), file)}`);
