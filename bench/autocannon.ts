/**
 * Throughput of the production server: builds, starts it on a free port, and runs autocannon for
 * 10 s each against a server-rendered page, the health check and a static file, printing requests
 * per second and latency percentiles. A bare node:http server answering the health check's very
 * bytes runs first as the reference: on a shared machine the ratio to it says more than req/s.
 * Results also go to bench/results/.
 *
 *   node bench/autocannon.ts [--skip-build] [--connections 50] [--duration 10] [/path ...]
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
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

/** Runs in a child process (asynchronously: the bare server below shares this event loop). */
async function runAutocannon(url: string): Promise<Report> {
  // Run autocannon's CLI on our Node 24; its shebang would pick the system's older Node.
  const { stdout } = await promisify(execFile)(
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
  return report.parse(JSON.parse(stdout));
}

/** node:http answering a constant body: what the machine can do with no framework at all. */
async function startBareServer(body: Buffer, contentType: string) {
  const bare = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': contentType, 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const address = bare.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/healthz`,
    close: () => new Promise<void>((resolve) => bare.close(() => resolve())),
  };
}

async function measure(label: string, url: string): Promise<Report> {
  process.stdout.write(
    `autocannon ${label} (${values.duration} s, ${values.connections} connections) … `,
  );
  const result = await runAutocannon(url);
  console.log(`${Math.round(result.requests.average)} req/s`);
  return result;
}

if (!values['skip-build']) buildSite();
const server = await startProductionServer();
const rows: Array<{ path: string } & Report> = [];
try {
  const health = await fetch(`${server.baseUrl}/healthz`);
  const bare = await startBareServer(
    Buffer.from(await health.arrayBuffer()),
    health.headers.get('content-type') ?? 'application/json',
  );
  try {
    rows.push({ path: 'bare node:http', ...(await measure('bare node:http /healthz', bare.url)) });
  } finally {
    await bare.close();
  }
  for (const target of targets) {
    rows.push({ path: target, ...(await measure(target, `${server.baseUrl}${target}`)) });
  }
} finally {
  await server.stop();
}

const bareRate = rows[0]?.requests.average ?? 0;
console.log('');
console.table(
  rows.map((row) => ({
    path: row.path,
    'req/s': Math.round(row.requests.average),
    'vs bare': bareRate > 0 ? (row.requests.average / bareRate).toFixed(2) : '–',
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
