/**
 * Throughput and latency of POST /account/v1/licenses/validate against a bare node:http server
 * answering the same JSON, in one run: `npm run bench:validate [-- --duration 10 --connections 20]`.
 * Throughput at `--connections` (20: a queue of 20 in flight, whose p99 is that queue over the
 * rate); latency at `--latency-connections` (4), still saturating the server, where p99 is the
 * server's own tail rather than the queue the load generator built (decision 199).
 * Runs on PGlite, and on PostgreSQL: DATABASE_URL when set, else a throwaway database on
 * 127.0.0.1:5432 (or BENCH_POSTGRES_URL) when reachable.
 * Rate limits count every request as in production, with a limit the run cannot reach
 * (`--rate-limits off` measures without them: LICENSE_VALIDATION_RATE_LIMIT=0).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { serve } from '@hono/node-server';
import pg from 'pg';
import { z } from 'zod';
import { buildApp } from '../server/app.ts';
import { parseEnv } from '../server/env.ts';
import { issueLicence } from '../server/licensing/licences/issue-licence.ts';
import { createLogger } from '../server/platform/logger.ts';
import { createRuntime, type Runtime } from '../server/runtime.ts';
import { siteConfig } from '../shared/site-config.ts';

const run = promisify(execFile);
const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '3' },
    'rate-limits': { type: 'string', default: 'on' },
    'latency-connections': { type: 'string', default: '4' },
  },
});
const duration = Number(args.duration);
const connections = Number(args.connections);
const latencyConnections = Number(args['latency-connections']);
if (!Number.isInteger(latencyConnections) || latencyConnections < 1 || latencyConnections > 1000) {
  console.error('--latency-connections takes a whole number from 1 to 1000');
  process.exit(2);
}
const warmup = Number(args.warmup);
const rounds = Number(args.rounds);
if (args['rate-limits'] !== 'on' && args['rate-limits'] !== 'off') {
  console.error('--rate-limits takes on or off');
  process.exit(2);
}
/** Counted like production, but far beyond what one run can send, so no request is refused. */
const rateLimit = args['rate-limits'] === 'on' ? '1000000000' : '0';
const autocannonBin = path.resolve('node_modules/autocannon/autocannon.js');
const postgresAdminUrl =
  process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const TARGET_RATIO = 0.5;
const TARGET_P99_MS = 20;
/** Issue 28: p99 of at most 5 ms at the latency connections (decision 199). */
const TARGET_LATENCY_P99_MS = 5;
const ORG_ID = '00D5g000004XyZ1EAK';

const autocannonResult = z.object({
  requests: z.object({ average: z.number(), total: z.number() }),
  latency: z.object({ p50: z.number(), p99: z.number(), average: z.number() }),
  non2xx: z.number(),
  errors: z.number(),
  timeouts: z.number(),
});
type Measurement = z.infer<typeof autocannonResult>;

async function autocannon(
  url: string,
  body: string,
  seconds: number,
  clients = connections,
): Promise<Measurement> {
  const { stdout } = await run(
    process.execPath,
    [
      autocannonBin,
      '--json',
      '--no-progress',
      '-c',
      String(clients),
      '-d',
      String(seconds),
      '-m',
      'POST',
      '-H',
      'content-type=application/json',
      '-b',
      body,
      url,
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  return autocannonResult.parse(JSON.parse(stdout));
}

function portOf(address: AddressInfo | string | null): number {
  if (!address || typeof address === 'string') throw new Error('the server has no TCP port');
  return address.port;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve(portOf(server.address())));
  });
}

/** The baseline: node:http answering a constant JSON body, reading the request body first. */
async function startBareServer(answer: string): Promise<{ url: string; close: () => void }> {
  const bytes = Buffer.from(answer);
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': bytes.length });
      res.end(bytes);
    });
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}/`, close: () => server.close() };
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

interface Target {
  name: 'pglite' | 'postgres';
  env: Record<string, string>;
  cleanup: () => Promise<void>;
}

async function pgliteTarget(): Promise<Target> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-validate-'));
  return {
    name: 'pglite',
    env: { DATA_DIR: dir },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

async function postgresTarget(): Promise<Target> {
  // A database of your own (DATABASE_URL) is used as it is and kept afterwards.
  const own = process.env.DATABASE_URL;
  if (own) return { name: 'postgres', env: { DATABASE_URL: own }, cleanup: async () => {} };
  const dbName = `orgsmith_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresAdminUrl });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${dbName}`;
  return {
    name: 'postgres',
    env: { DATABASE_URL: url.toString() },
    async cleanup() {
      const dropper = new pg.Client({ connectionString: postgresAdminUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${dbName} with (force)`);
      await dropper.end();
    },
  };
}

/** Starts the whole app (production settings) and creates a Pro licence. */
async function startApp(
  target: Target,
): Promise<{ url: string; body: string; close: () => Promise<void> }> {
  const env = parseEnv({
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    LICENSE_VALIDATION_RATE_LIMIT: rateLimit,
    PUBLIC_BASE_URL: 'http://127.0.0.1',
    ...target.env,
  });
  const runtime: Runtime = await createRuntime(env, createLogger(env.LOG_LEVEL));
  // As in production: the workers run, rate-limit counts are flushed every second.
  const stopWorkers = runtime.startWorkers();
  const { db } = runtime.deps.database;
  const issued = await db.transaction((tx) =>
    issueLicence(tx, runtime.deps.secretKey, {
      type: 'Paid',
      edition: 'Pro',
      quantity: 6,
      email: 'bench@example.com',
      productId: siteConfig.productId,
      expiresAt: new Date(Date.now() + 365 * 24 * 3600 * 1000),
      addressRule: 'any',
    }),
  );
  if (!issued.ok) throw new Error(`could not create the bench licence: ${issued.code}`);
  const app = buildApp(runtime.deps);
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const port = portOf(server.address());
  const body = JSON.stringify({
    licenseKey: issued.key,
    productId: siteConfig.productId,
    orgId: ORG_ID,
  });
  return {
    url: `http://127.0.0.1:${port}/account/v1/licenses/validate`,
    body,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await stopWorkers();
      await runtime.close();
    },
  };
}

/** The run with the median throughput, and the median p50/p99 of all runs. */
function median(runs: Measurement[]): Measurement {
  const middle = (values: number[]) =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  const byRate = [...runs].sort((a, b) => a.requests.average - b.requests.average);
  const chosen = byRate[Math.floor(byRate.length / 2)];
  if (!chosen) throw new Error('no runs');
  return {
    ...chosen,
    latency: {
      ...chosen.latency,
      p50: middle(runs.map((run) => run.latency.p50)),
      p99: middle(runs.map((run) => run.latency.p99)),
    },
    non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
    timeouts: runs.reduce((sum, run) => sum + run.timeouts, 0),
  };
}

function row(name: string, m: Measurement, bare?: Measurement): string {
  const ratio = bare ? (m.requests.average / bare.requests.average).toFixed(2) : '1.00';
  return [
    name.padEnd(24),
    m.requests.average.toFixed(0).padStart(9),
    m.latency.p50.toFixed(2).padStart(9),
    m.latency.p99.toFixed(2).padStart(9),
    ratio.padStart(7),
    String(m.non2xx + m.errors + m.timeouts).padStart(7),
  ].join('  ');
}

const targets = [await pgliteTarget()];
if (process.env.DATABASE_URL || (await postgresReachable())) targets.push(await postgresTarget());
else console.log(`PostgreSQL at ${postgresAdminUrl} is not reachable: PGlite only.`);

const results: Record<string, unknown> = {};
console.log(
  `autocannon: ${connections} connections (latency: ${latencyConnections}); ${rounds} alternating rounds of ${duration} s after ${warmup} s warm-up; medians; rate limits ${args['rate-limits']}; load average ${loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')}\n`,
);
console.log(
  [
    'target'.padEnd(24),
    'req/s'.padStart(9),
    'p50 ms'.padStart(9),
    'p99 ms'.padStart(9),
    'ratio'.padStart(7),
    'errors'.padStart(7),
  ].join('  '),
);
for (const target of targets) {
  const app = await startApp(target);
  try {
    const first = await fetch(app.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: app.body,
    });
    const answer = await first.text();
    if (!first.ok || !answer.includes('"valid":true')) {
      throw new Error(`the validation did not answer valid: ${first.status} ${answer}`);
    }
    const bare = await startBareServer(answer);
    try {
      await autocannon(bare.url, app.body, warmup);
      await autocannon(app.url, app.body, warmup);
      // Alternate short runs and take medians: the machine is shared, its load drifts.
      const bareRuns: Measurement[] = [];
      const appRuns: Measurement[] = [];
      for (let round = 0; round < rounds; round++) {
        bareRuns.push(await autocannon(bare.url, app.body, duration));
        appRuns.push(await autocannon(app.url, app.body, duration));
      }
      const latencyRuns: Measurement[] = [];
      for (let round = 0; round < rounds; round++) {
        latencyRuns.push(await autocannon(app.url, app.body, duration, latencyConnections));
      }
      const bareResult = median(bareRuns);
      const appResult = median(appRuns);
      const latency = median(latencyRuns);
      console.log(row(`bare node:http`, bareResult));
      console.log(row(`validate on ${target.name}`, appResult, bareResult));
      const ratio = appResult.requests.average / bareResult.requests.average;
      const verdict = [
        ratio >= TARGET_RATIO
          ? `ratio ${ratio.toFixed(2)} ≥ ${TARGET_RATIO} ✓`
          : `ratio ${ratio.toFixed(2)} < ${TARGET_RATIO} ✗`,
        appResult.latency.p99 <= TARGET_P99_MS
          ? `p99 ${appResult.latency.p99} ms ≤ ${TARGET_P99_MS} ms ✓`
          : `p99 ${appResult.latency.p99} ms > ${TARGET_P99_MS} ms ✗`,
        latency.latency.p99 <= TARGET_LATENCY_P99_MS
          ? `p99 at ${latencyConnections} connections ${latency.latency.p99} ms ≤ ${TARGET_LATENCY_P99_MS} ms ✓`
          : `p99 at ${latencyConnections} connections ${latency.latency.p99} ms > ${TARGET_LATENCY_P99_MS} ms ✗`,
      ].join(', ');
      const load = loadavg().map((value) => value.toFixed(2));
      console.log(row(`  ${latencyConnections} connections`, latency, bareResult));
      console.log(`  ${verdict}; load average now ${load.join(' ')}\n`);
      results[target.name] = {
        bare: bareResult,
        validate: appResult,
        ratio,
        latency: { connections: latencyConnections, ...latency },
        loadAverage: load,
      };
    } finally {
      bare.close();
    }
  } finally {
    await app.close();
    await target.cleanup();
  }
}

await mkdir('bench/results', { recursive: true });
const file = path.join(
  'bench/results',
  `validate-throughput-${new Date().toISOString().replaceAll(':', '-')}.json`,
);
await writeFile(
  file,
  JSON.stringify(
    {
      duration,
      connections,
      latencyConnections,
      warmup,
      rounds,
      rateLimits: args['rate-limits'],
      node: process.version,
      cpus: availableParallelism(),
      results,
    },
    null,
    2,
  ),
);
console.log(`Results written to ${file}`);
