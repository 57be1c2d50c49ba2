/**
 * The service at a million licences on PostgreSQL (issue 28 item 9, decision 197):
 *
 *   npm run bench:scale [-- --licences 1000000] [--mixed-seconds 60] [--instances 8] [--skip-build]
 *                       [--search-only] [--searches 200]
 *
 * Creates a database of its own (BENCH_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/
 * postgres, names the server), runs the real migrations, then seeds with set-based SQL: licences
 * of every type and state (key hashes made as the service makes them, so validation finds every
 * one; `next_lifecycle_at` left to its trigger), their subscriptions and Salesforce orgs, trial
 * claims and two sent e-mails per licence in the outbox. It measures, in this order:
 * - the console's search (`searchCustomers`, decision 232) at the full count, `--searches` times per
 *   kind of text support types, its p50/p95 (`--search-only`: seed, measure this, stop);
 * - licence validation as `bench:validate` does (autocannon, medians of rounds: throughput at
 *   `--connections`, p50/p99 at `--latency-connections`, decision 199), once at 1,000 licences and
 *   again at the full count;
 * - one run of the lifecycle jobs (licence lifecycle sweep and invoice reminders): its time and
 *   the rows its claims locked (counted on the connection), against the rows that were due;
 * - `npm run admin -- backup` while the server runs, and `npm run admin -- restore` of that file
 *   into a fresh database;
 * - `--instances` built servers (`npm run build`) on the one database under mixed page,
 *   validation and contact-form load for `--mixed-seconds`, counting every 5xx answer.
 * The last line printed is one JSON object with the figures; the whole result also goes to
 * bench/results/. The database is dropped at the end (also after a failure or Ctrl-C).
 */
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { serve } from '@hono/node-server';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { z } from 'zod';
import { buildApp } from '../server/app.ts';
import { billingJobs } from '../server/billing/subscriptions/billing-jobs.ts';
import { parseEnv, type Env } from '../server/env.ts';
import { searchCustomers } from '../server/features/customers/customer-search-repository.ts';
import { retentionJob } from '../server/features/privacy/enforce-retention.ts';
import { generateLicenceKey, hashLicenceKey } from '../server/licensing/licences/licence-key.ts';
import { openDatabase, type DatabaseHandle } from '../server/platform/db/client.ts';
import type { Database } from '../server/platform/db/database.ts';
import * as schema from '../server/platform/db/schema.ts';
import { hashEmailAddress } from '../server/platform/email/normalize-email-address.ts';
import { createLogger } from '../server/platform/logger.ts';
import {
  SERVER_ENTRY,
  SERVER_ENVIRONMENT,
  SERVER_NODE_FLAGS,
} from '../server/platform/node-flags.ts';
import { assembleDeps, createRuntime } from '../server/runtime.ts';
import { siteConfig } from '../shared/site-config.ts';
import { startPgBouncer, type PgBouncer } from '../tests/support/pgbouncer.ts';
import { pitrMissing, startPitrCluster } from '../tests/support/pitr-cluster.ts';
import { buildSite, freePort, stopOnExit, waitForOk } from './support/server.ts';

const run = promisify(execFile);

const positiveInteger = z.coerce.number().int().positive();
const { values: raw } = parseArgs({
  options: {
    licences: { type: 'string', default: '1000000' },
    'mixed-seconds': { type: 'string', default: '60' },
    instances: { type: 'string', default: '8' },
    /** Validation as bench:validate: seconds per round, rounds, warm-up, connections. */
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '20' },
    /** Connections of the latency rounds (decision 199). */
    'latency-connections': { type: 'string', default: '4' },
    'skip-build': { type: 'boolean', default: false },
    /** Seed, then measure the console search only (no build, no servers, no backup). */
    'search-only': { type: 'boolean', default: false },
    /** Searches per kind of query in the search phase. */
    searches: { type: 'string', default: '200' },
  },
});
const args = z
  .object({
    licences: positiveInteger.max(10_000_000),
    mixedSeconds: positiveInteger.max(3600),
    instances: positiveInteger.max(100),
    duration: positiveInteger.max(600),
    rounds: positiveInteger.max(20),
    warmup: positiveInteger.max(600),
    connections: positiveInteger.max(1000),
    latencyConnections: positiveInteger.max(1000),
    searches: positiveInteger.max(100_000),
  })
  .parse({
    licences: raw.licences,
    mixedSeconds: raw['mixed-seconds'],
    instances: raw.instances,
    duration: raw.duration,
    rounds: raw.rounds,
    warmup: raw.warmup,
    connections: raw.connections,
    latencyConnections: raw['latency-connections'],
    searches: raw.searches,
  });
const searchOnly = raw['search-only'] === true;

const adminUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECRET_KEY = 'bench-scale-secret-key-0123456789abcdef';
/** Licences seeded before the first validation measure: the small database to compare with. */
const SMALL = Math.min(1000, args.licences);
/** Rows per seeding statement. */
const BATCH = 20_000;
/** PostgreSQL's connections kept for superusers (`superuser_reserved_connections`) and this bench. */
const HEADROOM = 3 + 6;

const targets = {
  validateP99Ms: 5,
  validateP99Growth: 1.2,
  sweepMs: 2000,
  searchP95Ms: 100,
  backupS: 120,
  restoreS: 300,
};

const log = (line: string) => console.log(line);
const verdicts: string[] = [];
const verdict = (ok: boolean, text: string) => verdicts.push(`${ok ? '✓' : '✗'} ${text}`);
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

function databaseUrl(name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function adminQuery<T extends pg.QueryResultRow>(text: string): Promise<T[]> {
  return adminQueryOn<T>(adminUrl, text);
}

async function adminQueryOn<T extends pg.QueryResultRow>(
  url: string,
  text: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** Creates a database; it is dropped when the bench ends, whichever way. */
async function createDatabase(name: string): Promise<{ url: string; drop: () => Promise<void> }> {
  await adminQuery(`create database ${name}`);
  const forget = stopOnExit(() => {
    // The exit hook is synchronous: psql drops it (best effort).
    spawnSync('psql', [adminUrl, '-qc', `drop database if exists ${name} with (force)`]);
  });
  return {
    url: databaseUrl(name),
    async drop() {
      await adminQuery(`drop database if exists ${name} with (force)`);
      forget();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Seeding

/** A deterministic stream of symbols for licence n's key (xorshift32 seeded by n). */
function keyOf(n: number): string {
  let state = (n * 2654435761) ^ 0x9e3779b9 || 1;
  return generateLicenceKey((max) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % max;
  });
}

const emailOf = (n: number) => `customer${n}@example.com`;

/**
 * The Salesforce org id of licence n's `k`th org in its stored, 18-character form: 00D, twelve
 * digits, and the case suffix of that (only the D is a capital: EAA).
 */
const orgSql = (n: string, k: string) =>
  `'00D' || lpad((${n}::bigint * 10 + ${k})::text, 12, '0') || 'EAA'`;
const orgOf = (n: number, k: number) => `00D${String(n * 10 + k).padStart(12, '0')}EAA`;

/**
 * What licence n is (one case in 100; 2 in 2,500 are due for the lifecycle sweep now, about 80
 * an hour per 100,000 licences, several times what a year-long customer life makes due):
 * - 55 % paid and active with a card subscription, renewing within the year;
 * - 25 % trials started within the last 70 days (older ones were deleted by earlier sweeps);
 * - 10 % free licences;
 * - 5 % paid with a cancelled subscription that ended in the last 55 days;
 * - 5 % paid and active, invoiced yearly;
 * - due: ended more than two months ago (marked for deletion, one e-mail), or marked for deletion
 *   with its month of notice over (deleted).
 */
const LICENCE_SQL = `
with input as (
  select $1::int + ord::int - 1 as n, key_hash, key_hint, $3::timestamptz as now
  from unnest($2::text[], $4::text[]) with ordinality as k(key_hash, key_hint, ord)
), classified as (
  select *, case
      when n % 2500 = 1 then 'ended-due'
      when n % 2500 = 2 then 'deleting-due'
      when n % 100 < 55 then 'paid'
      when n % 100 < 80 then 'trial'
      when n % 100 < 90 then 'free'
      when n % 100 < 95 then 'ended'
      else 'invoiced'
    end as kind,
    now - ((n % 700) + 1) * interval '1 day' as created
  from input
)
insert into licences (
  id, type, edition, quantity, status, email, email_normalized, key_hash, key_hint, product_id,
  referral_code, expires_at, customer_id, subscription_id, subscription_status,
  deletion_scheduled_at, created_at, updated_at
)
select
  md5('licence-' || n)::uuid,
  case kind when 'trial' then 'Trial' when 'free' then 'Free' else 'Paid' end,
  case when kind = 'trial' then 'Enterprise' when kind = 'free' or n % 7 = 0 then 'Starter'
    when n % 11 = 0 then 'Enterprise' else 'Pro' end,
  case kind when 'free' then 3 when 'trial' then 5 else 1 + n % 20 end,
  case when kind in ('ended', 'ended-due', 'deleting-due') then 'Cancelled' else 'Active' end,
  'customer' || n || '@example.com',
  'customer' || n || '@example.com',
  key_hash,
  key_hint,
  $5::text,
  case when kind = 'trial' and n % 10 = 0 then 'PARTNER' || (n % 50) end,
  case kind
    when 'trial' then now - (n % 70) * interval '1 day' + interval '14 days'
    when 'free' then null
    when 'ended' then now - (n % 55) * interval '1 day'
    when 'ended-due' then now - interval '70 days'
    when 'deleting-due' then now - interval '100 days'
    else now + ((n::bigint * 7919) % 365 + 1) * interval '1 day'
  end,
  case when kind in ('trial', 'free') then null else 'cus_bench_' || n end,
  case when kind in ('trial', 'free') then null else 'sub_bench_' || n end,
  case when kind in ('trial', 'free') then null
    when kind in ('ended', 'ended-due', 'deleting-due') then 'canceled' else 'active' end,
  case when kind = 'deleting-due' then now - interval '1 hour' end,
  case when kind = 'trial' then now - (n % 70) * interval '1 day' else created end,
  now - (n % 30) * interval '1 day'
from classified`;

const DEPENDENT_SQL = [
  // The subscription behind every paid licence, as last read from its provider.
  `insert into subscriptions (
     provider, subscription_id, licence_id, licence_origin, customer_id, status, edition, quantity,
     billing_period, currency, current_period_end, cancel_at_period_end, ended_at,
     snapshot_read_at, created_at, updated_at, collection)
   select 'local', l.subscription_id, l.id, case when l.n % 9 = 0 then 'converted' else 'issued' end,
     l.customer_id, l.subscription_status, l.edition, l.quantity,
     case when l.n % 3 = 0 then 'monthly' else 'yearly' end,
     case when l.n % 2 = 0 then 'EUR' else 'USD' end,
     l.expires_at, false,
     case when l.subscription_status = 'canceled' then l.expires_at end,
     l.updated_at, l.created_at, l.updated_at,
     case when l.n % 100 >= 95 and l.subscription_status = 'active' then 'invoice' else 'card' end
   from generate_series($1::int, $2::int) as n
   join lateral (select l.*, n from licences l where l.id = md5('licence-' || n)::uuid) l on true
   where l.subscription_id is not null`,
  // Salesforce orgs that validated: 1–3 per paid licence, one per trial, 2 per free.
  `insert into licence_orgs (licence_id, org_id, first_seen_at, last_seen_at)
   select md5('licence-' || n)::uuid, ${orgSql('n', 'k')},
     $2::timestamptz - ((n % 600) + 1) * interval '1 day',
     $2::timestamptz - (n % 20) * interval '1 hour'
   from generate_series($1::int, $3::int) as n
   cross join lateral generate_series(1, case when n % 100 < 55 then 1 + n % 3 else 1 + (n % 2) end) as k`,
  // Two sent e-mails per licence (the licence key and one more); bodies cleared once sent. Sent
  // over the last 30 days and an hour: the hour past the retention period (decision 191) is what
  // one hourly retention run finds, about 1 in 721.
  `insert into email_outbox (kind, message_id, to_address, subject, status, attempts,
     next_attempt_at, created_at, sent_at)
   select case k when 1 then 'licence-issued' else 'renewal-receipt' end,
     '<bench-' || n || '-' || k || '@orgsmith.io>',
     'customer' || n || '@example.com',
     case k when 1 then 'Your Orgsmith licence key' else 'Your Orgsmith receipt' end,
     'sent', 1, ts, ts, ts + interval '2 seconds'
   from generate_series($1::int, $3::int) as n
   cross join generate_series(1, 2) as k
   cross join lateral (
     select $2::timestamptz - (n % 721) * interval '1 hour' - k * interval '1 minute' as ts) t`,
  // A quote for one licence in 100 (its company name is what the console's search finds by its
  // first letters): Company n GmbH, at the licence's address.
  `insert into quotes (number, year, sequence, token_hash, company_name, email, edition, quantity,
     billing_period, currency, total_cents, quote_date, valid_until, document, created_at)
   select 'Q-2026-' || n, 2026, n, md5('quote-' || n), 'Company ' || n || ' GmbH',
     'customer' || n || '@example.com', 'Pro', 5, 'yearly', 'EUR', 50000,
     ($2::timestamptz)::date - (n % 300), ($2::timestamptz)::date - (n % 300) + 30, '{}'::jsonb,
     $2::timestamptz - (n % 300) * interval '1 day'
   from generate_series($1::int, $3::int) as n
   where n % 100 = 7`,
];

/**
 * Runs `work` in a transaction, again (up to three times) when the connection was cut: the server
 * is shared, and a batch is all or nothing.
 */
async function inTransaction(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<void>) {
  for (let attempt = 1; ; attempt++) {
    const client = await pool.connect();
    try {
      await client.query('begin');
      await work(client);
      await client.query('commit');
      client.release();
      return;
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      client.release(true);
      const code = String(Reflect.get(Object(error), 'code') ?? '');
      const cut = code.startsWith('57P') || code.startsWith('08');
      if (!cut || attempt >= 3) throw error;
      log(`  a seeding batch lost its connection (${code}); again`);
    }
  }
}

/** Inserts licences n = from … to − 1 and everything that hangs off them. */
async function seed(pool: pg.Pool, from: number, to: number, now: Date): Promise<void> {
  for (let start = from; start < to; start += BATCH) {
    const end = Math.min(to, start + BATCH);
    const hashes: string[] = [];
    const hints: string[] = [];
    const claims: string[] = [];
    for (let n = start; n < end; n++) {
      const key = keyOf(n);
      hashes.push(hashLicenceKey(SECRET_KEY, key));
      hints.push(key.slice(-4));
      claims.push(hashEmailAddress(SECRET_KEY, emailOf(n)));
    }
    await inTransaction(pool, async (client) => {
      await client.query(LICENCE_SQL, [start, hashes, now, hints, siteConfig.productId]);
      // One claim per address that ever held a licence (decision 051).
      await client.query(
        `insert into trial_claims (email_hash, first_licence_id, first_licence_type, claimed_at)
         select h, md5('licence-' || ($1::int + ord::int - 1))::uuid, l.type, l.created_at
         from unnest($2::text[]) with ordinality as c(h, ord)
         join licences l on l.id = md5('licence-' || ($1::int + ord::int - 1))::uuid`,
        [start, claims],
      );
      await client.query(DEPENDENT_SQL[0] ?? '', [start, end - 1]);
      await client.query(DEPENDENT_SQL[1] ?? '', [start, now, end - 1]);
      await client.query(DEPENDENT_SQL[2] ?? '', [start, now, end - 1]);
      await client.query(DEPENDENT_SQL[3] ?? '', [start, now, end - 1]);
    });
    if (Math.floor(end / 100_000) > Math.floor(start / 100_000)) {
      log(`  … ${end - 1} licences (load ${load()})`);
    }
  }
  await pool.query('analyze');
}

// ---------------------------------------------------------------------------------------------
// Validation, as bench:validate measures it

const autocannonBin = path.resolve('node_modules/autocannon/autocannon.js');
const cannonReport = z.object({
  requests: z.object({ average: z.number(), total: z.number() }),
  latency: z.object({ p50: z.number(), p99: z.number() }),
  non2xx: z.number(),
  errors: z.number(),
  timeouts: z.number(),
});
type CannonReport = z.infer<typeof cannonReport>;

async function cannonPost(
  url: string,
  body: string,
  seconds: number,
  connections = args.connections,
): Promise<CannonReport> {
  const { stdout } = await run(
    process.execPath,
    [
      autocannonBin,
      '--json',
      '--no-progress',
      ...['-c', String(connections), '-d', String(seconds), '-m', 'POST'],
      ...['-H', 'content-type=application/json', '-b', body, url],
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  return cannonReport.parse(JSON.parse(stdout));
}

const middle = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** The key and a known org of a paid, active licence (n = 3: paid, card, three orgs). */
function validationBody(n: number): string {
  return JSON.stringify({
    licenseKey: keyOf(n),
    productId: siteConfig.productId,
    orgId: orgOf(n, 1),
  });
}

function benchEnv(url: string, extra: Record<string, string> = {}): Env {
  return parseEnv({
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_URL: url,
    SECRET_KEY,
    // Counted as in production, with a limit no run reaches (as bench:validate).
    LICENSE_VALIDATION_RATE_LIMIT: '1000000000',
    PUBLIC_BASE_URL: 'http://127.0.0.1',
    ...extra,
  });
}

/** The whole app in this process, workers running, as bench:validate starts it. */
async function startInProcess(url: string, dataDir: string) {
  const env = benchEnv(url, { DATA_DIR: dataDir });
  const runtime = await createRuntime(env, createLogger(env.LOG_LEVEL));
  const stopWorkers = runtime.startWorkers();
  const server = serve({ fetch: buildApp(runtime.deps).fetch, port: 0, hostname: '127.0.0.1' });
  await once(server, 'listening');
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the server has no TCP port');
  return {
    validateUrl: `http://127.0.0.1:${address.port}/account/v1/licenses/validate`,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await stopWorkers();
      await runtime.close();
    },
  };
}

async function measureValidation(validateUrl: string, n: number) {
  const body = validationBody(n);
  const first = await fetch(validateUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const answer = await first.text();
  if (!first.ok || !answer.includes('"valid":true')) {
    throw new Error(`licence ${n} did not validate: ${first.status} ${answer}`);
  }
  await cannonPost(validateUrl, body, args.warmup);
  const runs: CannonReport[] = [];
  for (let round = 0; round < args.rounds; round++) {
    runs.push(await cannonPost(validateUrl, body, args.duration));
  }
  // The server's own tail, still saturated, without a queue of 20 in front of it (decision 199).
  const latencyRuns: CannonReport[] = [];
  for (let round = 0; round < args.rounds; round++) {
    latencyRuns.push(await cannonPost(validateUrl, body, args.duration, args.latencyConnections));
  }
  const failed = [...runs, ...latencyRuns].reduce(
    (sum, r) => sum + r.non2xx + r.errors + r.timeouts,
    0,
  );
  if (failed > 0) throw new Error(`${failed} validations failed`);
  return {
    rps: Math.round(middle(runs.map((r) => r.requests.average))),
    p99Queued: middle(runs.map((r) => r.latency.p99)),
    p50: middle(latencyRuns.map((r) => r.latency.p50)),
    p99: middle(latencyRuns.map((r) => r.latency.p99)),
    latencyRps: Math.round(middle(latencyRuns.map((r) => r.requests.average))),
  };
}

// ---------------------------------------------------------------------------------------------
// The console's search (decision 227), as support types it

/** Licence n's address as a customer might write it: capitals, a +tag (decision 211). */
const otherSpelling = (n: number) =>
  n % 2 === 0 ? `Customer${n}@Example.COM` : `customer${n}+support@example.com`;

/** A licence number in 1 … licences that is not a trial or free licence (it has Stripe-like ids). */
function paidLicence(random: () => number): number {
  for (;;) {
    const n = 1 + Math.floor(random() * args.licences);
    if (n % 100 < 55 && n % 2500 > 2) return n;
  }
}

/**
 * `searchCustomers` (what `customers search` and the console's search box call) on the seeded
 * database, each kind of text `args.searches` times, one after another on one connection: a full
 * key, an address in another spelling, an org id in its 15- and 18-character forms, the first
 * letters of a company name, a quote number, an invoice number, a Stripe customer and
 * subscription id. Every search must find its customer (the invoice number excepted: the bench
 * seeds no payment documents, so it probes their index and finds nothing).
 */
async function measureSearch(url: string) {
  const handle = await openDatabase({ databaseUrl: url, poolMax: 1 });
  let state = 0x2545f491;
  const random = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  const quoted = () => {
    const n = 100 * Math.floor(random() * Math.floor((args.licences - 7) / 100)) + 7;
    return n;
  };
  const kinds: Record<string, () => { text: string; finds: boolean }> = {
    key: () => ({ text: keyOf(paidLicence(random)), finds: true }),
    address: () => ({ text: otherSpelling(paidLicence(random)), finds: true }),
    org15: () => ({ text: orgOf(paidLicence(random), 1).slice(0, 15), finds: true }),
    org18: () => ({ text: orgOf(paidLicence(random), 1), finds: true }),
    company: () => ({ text: `company ${quoted()}`, finds: true }),
    quote: () => ({ text: `Q-2026-${quoted()}`, finds: true }),
    invoice: () => ({ text: `INV-2026-${1 + Math.floor(random() * 99_999)}`, finds: false }),
    customerId: () => ({ text: `cus_bench_${paidLicence(random)}`, finds: true }),
    subscriptionId: () => ({ text: `sub_bench_${paidLicence(random)}`, finds: true }),
  };
  const all: number[] = [];
  const perKind: Record<string, { p50: number; p95: number }> = {};
  try {
    const deps = { db: handle.db, secretKey: SECRET_KEY };
    // Warm the connection and the plans.
    for (const make of Object.values(kinds)) await searchCustomers(deps, make().text);
    for (const [kind, make] of Object.entries(kinds)) {
      const times: number[] = [];
      for (let i = 0; i < args.searches; i++) {
        const { text, finds } = make();
        const started = performance.now();
        const result = await searchCustomers(deps, text);
        times.push(performance.now() - started);
        if (finds && result.hits.length === 0) {
          throw new Error(`the search for "${text}" (${kind}) found no customer`);
        }
      }
      perKind[kind] = { p50: percentile(times, 0.5), p95: percentile(times, 0.95) };
      all.push(...times);
    }
  } finally {
    await handle.close();
  }
  return { p50: percentile(all, 0.5), p95: percentile(all, 0.95), searches: all.length, perKind };
}

/** The value below which `share` of `values` lie, in milliseconds to a tenth. */
function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const value = sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? 0;
  return Math.round(value * 10) / 10;
}

// ---------------------------------------------------------------------------------------------
// The lifecycle jobs, once

/**
 * A pool whose connections count the rows returned by `… for update …` statements: the rows the
 * jobs' claims locked.
 */
function countingHandle(url: string): { handle: DatabaseHandle; locked: () => number } {
  let locked = 0;
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...a: unknown[]) => Promise<pg.QueryResult>;
    const counted = async (...a: unknown[]) => {
      const result = await query(...a);
      const config = a[0];
      const text =
        typeof config === 'string'
          ? config
          : typeof config === 'object' && config && 'text' in config
            ? String(config.text)
            : '';
      if (/\bfor update\b/i.test(text)) locked += result?.rowCount ?? 0;
      return result;
    };
    Object.assign(client, { query: counted });
  });
  const db: Database = drizzle(pool, { schema });
  return {
    handle: {
      db,
      kind: 'postgres',
      listen: async () => async () => {},
      close: () => pool.end(),
    },
    locked: () => locked,
  };
}

async function measureSweep(url: string) {
  const env = benchEnv(url, { DATA_DIR: await mkdtemp(path.join(tmpdir(), 'bench-scale-sweep-')) });
  const { handle, locked } = countingHandle(url);
  try {
    const now = new Date();
    const [due] = await adminQueryOn<{ licences: string }>(
      url,
      'select count(*) as licences from licences where next_lifecycle_at <= $1',
      [now],
    );
    const deps = await assembleDeps({
      env,
      database: handle,
      logger: createLogger('warn'),
      clock: () => new Date(),
      secretKey: SECRET_KEY,
      wakeOutbox: () => undefined,
    });
    const jobs = billingJobs(deps);
    const signal = new AbortController().signal;
    const started = performance.now();
    let rows = 0;
    for (const job of jobs) {
      const outcome = (await job.run(signal)) ?? 0;
      rows += typeof outcome === 'number' ? outcome : outcome.rows;
    }
    const ms = Math.round(performance.now() - started);
    await rm(env.DATA_DIR, { recursive: true, force: true });
    return { ms, locked: locked(), due: Number(due?.licences ?? 0), changed: rows };
  } finally {
    await handle.close();
  }
}

/** One run of the retention job (decision 191): its time and the rows it deleted. */
async function measureRetention(url: string) {
  const { handle } = countingHandle(url);
  try {
    const job = retentionJob({
      db: handle.db,
      // No `.eml` files in the benchmark: a directory that does not exist.
      dataDir: path.join(tmpdir(), 'bench-scale-retention-no-mail'),
      clock: () => new Date(),
      logger: createLogger('warn'),
    });
    const started = performance.now();
    const rows = (await job.run(new AbortController().signal)) ?? 0;
    return { ms: Math.round(performance.now() - started), rows };
  } finally {
    await handle.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Backup and restore through the admin commands

async function adminCommand(url: string, command: string[]): Promise<{ s: number; out: string }> {
  const started = performance.now();
  const { stdout } = await run(process.execPath, ['server/admin/cli.ts', ...command], {
    env: { ...process.env, DATABASE_URL: url, SECRET_KEY, LOG_LEVEL: 'warn' },
    maxBuffer: 1 << 24,
  });
  return { s: (performance.now() - started) / 1000, out: stdout.trim() };
}

// ---------------------------------------------------------------------------------------------
// Instances under mixed load

interface Instance {
  baseUrl: string;
  stop: () => Promise<void>;
  /** Sends SIGTERM and answers how long the process took to exit, and its exit code. */
  terminate: () => Promise<{ ms: number; code: number | null }>;
}

async function startInstance(
  url: string,
  poolMax: number,
  fleet: { directUrl: string; heapMb: number } | undefined = undefined,
): Promise<Instance> {
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-scale-instance-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  const heap = fleet ? [`--max-old-space-size=${fleet.heapMb}`] : [];
  const child: ChildProcess = spawn(
    process.execPath,
    [...SERVER_NODE_FLAGS, ...heap, SERVER_ENTRY],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        ...SERVER_ENVIRONMENT,
        NODE_ENV: 'production',
        PORT: String(port),
        CONSOLE_PORT: String(await freePort()),
        DATA_DIR: dataDir,
        PUBLIC_BASE_URL: baseUrl,
        DATABASE_URL: url,
        ...(fleet ? { DATABASE_DIRECT_URL: fleet.directUrl } : {}),
        DATABASE_POOL_MAX: String(poolMax),
        SECRET_KEY,
        LICENSE_VALIDATION_RATE_LIMIT: '1000000000',
        LOG_LEVEL: 'warn',
      },
    },
  );
  const exited = once(child, 'exit');
  const forget = stopOnExit(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    forget();
    await rm(dataDir, { recursive: true, force: true });
  };
  const terminate = async () => {
    const sent = performance.now();
    if (child.exitCode === null) child.kill('SIGTERM');
    const [code] = (await exited) as [number | null];
    const ms = Math.round(performance.now() - sent);
    forget();
    await rm(dataDir, { recursive: true, force: true });
    return { ms, code };
  };
  try {
    await Promise.race([
      waitForOk(`${baseUrl}/readyz`, 300_000, 250),
      exited.then(([code]) => {
        throw new Error(`an instance exited with ${String(code)} before it was ready`);
      }),
    ]);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, stop, terminate };
}

type Autocannon = (options: Record<string, unknown>) => Promise<unknown>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
const mixedReport = z.object({
  requests: z.object({ total: z.number() }),
  errors: z.number(),
  timeouts: z.number(),
  '2xx': z.number(),
  '4xx': z.number(),
  '5xx': z.number(),
});

/** Pages, validations and contact-form posts round robin on every instance at once. */
async function mixedLoad(
  instances: Instance[],
  validateBody: string,
  seconds: number,
  connections = 3,
) {
  const csrf = 'benchscale-csrf-token-0123456789';
  const form = JSON.stringify({
    name: 'Bench Scale',
    emailAddress: 'bench-scale@example.com',
    message: 'A message from the scale benchmark.',
  });
  const requests = [
    { method: 'GET', path: '/' },
    { method: 'POST', path: '/account/v1/licenses/validate', body: validateBody },
    { method: 'GET', path: '/pricing' },
    { method: 'POST', path: '/account/v1/licenses/validate', body: validateBody },
    { method: 'GET', path: '/download' },
    {
      method: 'POST',
      path: '/api/submitContactForm',
      body: form,
      headers: {
        'content-type': 'application/json',
        cookie: `XSRF-TOKEN=${csrf}`,
        'x-xsrf-token': csrf,
      },
    },
  ];
  const reports = await Promise.all(
    instances.map(async (instance) =>
      mixedReport.parse(
        await autocannon({
          url: instance.baseUrl,
          connections,
          duration: seconds,
          headers: { 'content-type': 'application/json' },
          requests,
        }),
      ),
    ),
  );
  return reports.reduce(
    (sum, r) => ({
      requests: sum.requests + r.requests.total,
      ok: sum.ok + r['2xx'],
      refused: sum.refused + r['4xx'],
      serverErrors: sum.serverErrors + r['5xx'],
      failed: sum.failed + r.errors + r.timeouts,
    }),
    { requests: 0, ok: 0, refused: 0, serverErrors: 0, failed: 0 },
  );
}

// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// Fifty instances through PgBouncer (issue 43 item 5, decision 238)

/** Above this many instances the bench runs the fleet measures below instead of the ones above. */
const FLEET_FROM = 9;
/** PgBouncer's server connections for the whole fleet, and each instance's pool of clients to it. */
const FLEET_BOUNCER_POOL = 20;
const FLEET_INSTANCE_POOL = 2;
/** Each instance's V8 heap: fifty Node processes share the machine. */
const FLEET_HEAP_MB = 128;
/** How long an instance may take to end after SIGTERM (server/main.ts forces the stop at 10 s). */
const DRAIN_MS = 10_000;

/** PgBouncer's `SHOW STATS` query count for one database: every statement its pool ran. */
async function bouncerQueries(bouncer: PgBouncer, database: string): Promise<number> {
  const client = new pg.Client({ connectionString: bouncer.adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<Record<string, string>>('SHOW STATS');
    return Number(rows.find((row) => row.database === database)?.total_query_count ?? 0);
  } finally {
    await client.end();
  }
}

/** Samples PostgreSQL's connections to `database` (all, and PgBouncer's pooled ones) until stopped. */
function sampleConnections(bouncer: PgBouncer, database: string) {
  let all = 0;
  let pooled = 0;
  let stopped = false;
  const client = new pg.Client({ connectionString: adminUrl });
  const sampling = (async () => {
    await client.connect();
    while (!stopped) {
      const [row] = (
        await client.query<{ n: string }>(
          'select count(*) as n from pg_stat_activity where datname = $1',
          [database],
        )
      ).rows;
      all = Math.max(all, Number(row?.n ?? 0));
      const pools = await bouncer.pools().catch(() => []);
      const server = pools
        .filter((p) => p.database === database)
        .reduce((sum, p) => sum + p.sv_active + p.sv_idle + p.sv_used + p.sv_login, 0);
      pooled = Math.max(pooled, server);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    await client.end();
  })();
  return {
    async stop() {
      stopped = true;
      await sampling;
      return { all, pooled };
    },
  };
}

/** Writes a run's arguments, machine, figures and verdicts to `bench/results/`; answers the file. */
async function writeResults(prefix: string, body: Record<string, unknown>): Promise<string> {
  await mkdir('bench/results', { recursive: true });
  const file = path.join(
    'bench/results',
    `${prefix}-${new Date().toISOString().replaceAll(':', '-')}.json`,
  );
  const machine = {
    args,
    node: process.version,
    cpus: availableParallelism(),
    loadAverage: load(),
  };
  await writeFile(file, JSON.stringify({ ...machine, ...body, verdicts }, null, 2));
  return file;
}

/**
 * Restarts every instance in turn while validations go on against the ones in rotation: out of
 * rotation, SIGTERM (timed), then a replacement started and put in rotation once ready. Answers
 * the stops, the slowest replacement's start, and what the load saw.
 */
async function rollingRestart(
  instances: Instance[],
  replace: (old: Instance) => Promise<Instance>,
): Promise<{
  stops: Array<{ ms: number; code: number | null }>;
  seconds: number;
  readyMaxS: number;
  requests: number;
  serverErrors: number;
  failed: number;
}> {
  const rotation = [...instances];
  const body = validationBody(3);
  let running = true;
  let requests = 0;
  let serverErrors = 0;
  let failed = 0;
  const client = async () => {
    while (running) {
      const target = rotation[Math.floor(Math.random() * rotation.length)];
      if (!target) break;
      try {
        const response = await fetch(`${target.baseUrl}/account/v1/licenses/validate`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
          signal: AbortSignal.timeout(10_000),
        });
        await response.arrayBuffer();
        requests++;
        if (response.status >= 500) serverErrors++;
      } catch {
        failed++;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const clients = Array.from({ length: 4 }, client);
  const started = performance.now();
  const stops: Array<{ ms: number; code: number | null }> = [];
  let readyMaxS = 0;
  const count = instances.length;
  for (let n = 0; n < count; n++) {
    const old = instances.shift();
    if (!old) break;
    rotation.splice(rotation.indexOf(old), 1);
    // A load balancer stops sending before the stop: requests already addressed to it go out.
    await new Promise((resolve) => setTimeout(resolve, 200));
    stops.push(await old.terminate());
    const asked = performance.now();
    const fresh = await replace(old);
    readyMaxS = Math.max(readyMaxS, (performance.now() - asked) / 1000);
    instances.push(fresh);
    rotation.push(fresh);
  }
  const seconds = (performance.now() - started) / 1000;
  running = false;
  await Promise.all(clients);
  return { stops, seconds, readyMaxS, requests, serverErrors, failed };
}

/**
 * Point-in-time recovery at the bench's scale (issue 43 item 4): a PostgreSQL cluster of its own
 * with WAL archived by pgBackRest, migrated and seeded with `licences`, a full backup, the time
 * noted, a licence revoked after it; restored to the noted time, the licence is as it was. Answers
 * the restore's seconds (stop, restore, WAL replay, promotion), or null without pgBackRest.
 */
async function measurePitr(licences: number): Promise<number | null> {
  if (pitrMissing.length > 0) {
    log(`Point-in-time recovery not measured: ${pitrMissing.join(', ')} missing.`);
    return null;
  }
  const cluster = await startPitrCluster();
  try {
    const migrated = await openDatabase({ databaseUrl: cluster.url, poolMax: 2 });
    await migrated.close();
    const pool = new pg.Pool({ connectionString: cluster.url, max: 2 });
    pool.on('error', () => undefined);
    let started = performance.now();
    await seed(pool, 1, licences + 1, new Date());
    const seededS = (performance.now() - started) / 1000;
    started = performance.now();
    cluster.backup();
    const backupS = (performance.now() - started) / 1000;
    // pgBackRest records a backup's stop time in whole seconds: a target must come after it.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const [first] = (
      await pool.query<{ id: string }>('select id from licences order by id limit 1')
    ).rows;
    const noted = await cluster.now();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await pool.query(
      "update licences set revoked_at = now(), revocation_reason = 'pitr bench' where id = $1",
      [first?.id],
    );
    await pool.end();
    const restoreS = await cluster.restoreTo(noted);
    const [after] = await cluster.query<{ revoked_at: Date | null; n: string }>(
      `select (select revoked_at from licences where id = '${first?.id ?? ''}') as revoked_at,
        (select count(*) from licences) as n`,
    );
    const asItWas = after?.revoked_at === null && Number(after.n) === licences;
    log(
      `Point-in-time recovery of ${licences} licences (seeded in ${seededS.toFixed(1)} s, full backup ${backupS.toFixed(1)} s): restored to ${noted} in ${restoreS.toFixed(2)} s; the licence revoked after that time is ${asItWas ? 'unrevoked, every licence there' : 'NOT as it was'}`,
    );
    verdict(asItWas, `point-in-time recovery: as at the noted time, in ${restoreS.toFixed(2)} s`);
    return Number(restoreS.toFixed(2));
  } finally {
    await cluster.close();
  }
}

async function runFleet(): Promise<number> {
  const fleetName = `orgsmith_fleet_${randomBytes(4).toString('hex')}`;
  const fleetDb = await createDatabase(fleetName);
  const instances: Instance[] = [];
  let bouncer: PgBouncer | undefined;
  try {
    log(
      `bench:scale fleet: ${args.instances} instances, ${args.licences} licences on ${fleetName}; load average ${load()}`,
    );
    if (!raw['skip-build']) buildSite();
    const migrated = await openDatabase({ databaseUrl: fleetDb.url, poolMax: 2 });
    await migrated.close();
    const pool = new pg.Pool({ connectionString: fleetDb.url, max: 2 });
    pool.on('error', () => undefined);
    const now = new Date();
    let started = performance.now();
    await seed(pool, 1, args.licences + 1, now);
    // The hourly jobs ran a moment ago: the fleet's cluster jobs stay idle during the measures.
    await pool.query(
      `insert into job_runs (name, next_run_at, last_started_at, last_finished_at)
       select name, $1::timestamptz + interval '1 hour', $1, $1
       from unnest(array['licence-lifecycle', 'invoice-reminders', 'retention']) as name
       on conflict (name) do update set next_run_at = excluded.next_run_at`,
      [now],
    );
    await pool.end();
    log(
      `Seeded ${args.licences} licences in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
    );

    bouncer = await startPgBouncer({
      upstream: fleetDb.url,
      poolSize: FLEET_BOUNCER_POOL,
      maxClientConn: args.instances * FLEET_INSTANCE_POOL + 50,
    });
    const connections = sampleConnections(bouncer, fleetName);
    const fleet = { directUrl: fleetDb.url, heapMb: FLEET_HEAP_MB };
    started = performance.now();
    // Five at a time, as a rolling start on a few hosts would.
    for (let n = 0; n < args.instances; n += 5) {
      const batch = Math.min(5, args.instances - n);
      instances.push(
        ...(await Promise.all(
          Array.from({ length: batch }, () =>
            startInstance(bouncer?.url ?? '', FLEET_INSTANCE_POOL, fleet),
          ),
        )),
      );
    }
    const startS = (performance.now() - started) / 1000;
    log(
      `${instances.length} instances up through PgBouncer in ${startS.toFixed(0)} s (load ${load()})`,
    );

    // Every instance under a light mixed load at once (one connection each).
    const mixed = await mixedLoad(instances, validationBody(3), args.mixedSeconds, 1);
    log(
      `Mixed load on all ${instances.length} for ${args.mixedSeconds} s: ${mixed.requests} requests, ${mixed.ok} 2xx, ${mixed.refused} 4xx, ${mixed.serverErrors} 5xx, ${mixed.failed} errors (load ${load()})`,
    );
    verdict(
      mixed.serverErrors === 0 && mixed.failed === 0,
      `${mixed.serverErrors} × 5xx, ${mixed.failed} errors`,
    );

    // Validation on one instance while the others idle (their background work still counted).
    const [first] = instances;
    if (!first) throw new Error('no instance');
    const validateUrl = `${first.baseUrl}/account/v1/licenses/validate`;
    const body = validationBody(3);
    await cannonPost(validateUrl, body, args.warmup, args.latencyConnections);
    const queriesBefore = await bouncerQueries(bouncer, fleetName);
    const latencyRuns: CannonReport[] = [];
    for (let round = 0; round < args.rounds; round++) {
      latencyRuns.push(await cannonPost(validateUrl, body, args.duration, args.latencyConnections));
    }
    const queries = (await bouncerQueries(bouncer, fleetName)) - queriesBefore;
    const validations = latencyRuns.reduce((sum, r) => sum + r.requests.total, 0);
    const failedValidations = latencyRuns.reduce(
      (sum, r) => sum + r.non2xx + r.errors + r.timeouts,
      0,
    );
    const p99 = middle(latencyRuns.map((r) => r.latency.p99));
    const p50 = middle(latencyRuns.map((r) => r.latency.p50));
    const statementsPerValidation = Number((queries / Math.max(1, validations)).toFixed(4));
    log(
      `Validation on 1 of ${instances.length} at ${args.latencyConnections} connections: p50 ${p50} ms, p99 ${p99} ms, ${validations} validations (${failedValidations} failed); ${queries} statements through PgBouncer from all ${instances.length} instances meanwhile: ${statementsPerValidation} per validation (load ${load()})`,
    );
    verdict(p99 <= targets.validateP99Ms, `validation p99 ${p99} ms ≤ ${targets.validateP99Ms} ms`);
    verdict(
      statementsPerValidation <= 0.05,
      `${statementsPerValidation} statements per validation ≤ 0.05`,
    );

    // A rolling restart under light load (issue 43 item 6): each instance in turn leaves the
    // rotation (as a load balancer does once /readyz answers 503), gets SIGTERM and must end
    // within its drain time; its replacement joins once ready. The load never stops.
    const rolling = await rollingRestart(instances, () =>
      startInstance(bouncer?.url ?? '', FLEET_INSTANCE_POOL, fleet),
    );
    const stops = rolling.stops;
    const slowest = Math.max(...stops.map((s) => s.ms));
    const unclean = stops.filter((s) => s.code !== 0).length;
    log(
      `Rolling restart of ${stops.length} in ${rolling.seconds.toFixed(0)} s: slowest stop ${slowest} ms, median ${middle(stops.map((s) => s.ms))} ms, ${unclean} ended with an error; replacements ready in at most ${rolling.readyMaxS.toFixed(1)} s; meanwhile ${rolling.requests} validations, ${rolling.serverErrors} × 5xx, ${rolling.failed} errors (load ${load()})`,
    );
    verdict(
      slowest <= DRAIN_MS && unclean === 0,
      `every instance ended within ${DRAIN_MS} ms of SIGTERM (slowest ${slowest} ms), exit code 0`,
    );
    verdict(
      rolling.serverErrors === 0 && rolling.failed === 0,
      `rolling restart: ${rolling.serverErrors} × 5xx, ${rolling.failed} errors of ${rolling.requests} validations`,
    );
    const seen = await connections.stop();
    log(
      `PostgreSQL connections to the database: at most ${seen.all} (${seen.pooled} of them PgBouncer's, pool ${FLEET_BOUNCER_POOL}; the rest one direct LISTEN connection per instance)`,
    );
    verdict(
      seen.pooled <= FLEET_BOUNCER_POOL,
      `PgBouncer's server connections ${seen.pooled} ≤ its pool of ${FLEET_BOUNCER_POOL}`,
    );

    const pitrRestoreS = await measurePitr(args.licences);

    const figures = {
      licences: args.licences,
      instances: args.instances,
      instance_pool: FLEET_INSTANCE_POOL,
      pgbouncer_pool: FLEET_BOUNCER_POOL,
      heap_mb: FLEET_HEAP_MB,
      start_s: Number(startS.toFixed(1)),
      mixed_requests: mixed.requests,
      mixed_5xx: mixed.serverErrors,
      validate_p50_ms: p50,
      validate_p99_ms: p99,
      validate_connections: args.latencyConnections,
      pg_connections_max: seen.all,
      pg_pooled_connections_max: seen.pooled,
      statements_per_validation: statementsPerValidation,
      drain_max_ms: slowest,
      rolling_restart_s: Number(rolling.seconds.toFixed(1)),
      rolling_ready_max_s: Number(rolling.readyMaxS.toFixed(1)),
      rolling_requests: rolling.requests,
      rolling_5xx: rolling.serverErrors,
      rolling_errors: rolling.failed,
      pitr_restore_s: pitrRestoreS,
    };
    const file = await writeResults('scale-fleet', { figures });
    log(`\n${verdicts.join('\n')}\nResults written to ${file}; load average ${load()}`);
    log(JSON.stringify(figures));
    return verdicts.some((line) => line.startsWith('✗')) ? 1 : 0;
  } finally {
    await Promise.all(instances.map((instance) => instance.stop()));
    await bouncer?.stop();
    await fleetDb.drop();
  }
}

if (args.instances >= FLEET_FROM) process.exit(await runFleet());

const name = `orgsmith_scale_${randomBytes(4).toString('hex')}`;
const database = await createDatabase(name);
const restored = await createDatabase(`${name}_restore`);
const workDir = await mkdtemp(path.join(tmpdir(), 'bench-scale-'));
const results: Record<string, unknown> = {};
try {
  log(`bench:scale: ${args.licences} licences on ${name}; load average ${load()}`);
  if (!raw['skip-build'] && !searchOnly) buildSite();

  // The real migrations, as the service runs them at start.
  const migrated = await openDatabase({ databaseUrl: database.url, poolMax: 2 });
  await migrated.close();
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  // An idle connection cut by the server must not end the bench; the next query opens another.
  pool.on('error', () => undefined);
  const now = new Date();
  let started = performance.now();
  await seed(pool, 1, SMALL + 1, now);
  log(`Seeded ${SMALL} licences in ${((performance.now() - started) / 1000).toFixed(1)} s.`);

  // The hourly jobs ran a moment ago, as on a live service: the servers started below leave the
  // due rows to the one run this bench measures.
  await pool.query(
    `insert into job_runs (name, next_run_at, last_started_at, last_finished_at)
     select name, $1::timestamptz + interval '1 hour', $1, $1
     from unnest(array['licence-lifecycle', 'invoice-reminders', 'retention']) as name
     on conflict (name) do update set next_run_at = excluded.next_run_at`,
    [now],
  );
  const serverDir = await mkdtemp(path.join(workDir, 'server-'));
  let small: Awaited<ReturnType<typeof measureValidation>> | undefined;
  if (!searchOnly) {
    const app = await startInProcess(database.url, serverDir);
    small = await measureValidation(app.validateUrl, 3);
    log(
      `Validation at ${SMALL}: ${small.rps} req/s (p99 ${small.p99Queued} ms at ${args.connections} connections); p50 ${small.p50} ms, p99 ${small.p99} ms at ${args.latencyConnections} connections, ${small.latencyRps} req/s (load ${load()})`,
    );
    await app.close();
  }

  started = performance.now();
  await seed(pool, SMALL + 1, args.licences + 1, now);
  const seedS = (performance.now() - started) / 1000;
  const counts = (
    await pool.query<{ t: string; n: string }>(
      `select 'licences' as t, count(*) as n from licences union all
       select 'subscriptions', count(*) from subscriptions union all
       select 'licence_orgs', count(*) from licence_orgs union all
       select 'email_outbox', count(*) from email_outbox union all
       select 'trial_claims', count(*) from trial_claims union all
       select 'due', count(*) from licences where next_lifecycle_at <= now()`,
    )
  ).rows;
  const size = (await pool.query<{ s: string }>('select pg_database_size(current_database()) as s'))
    .rows[0]?.s;
  await pool.end();
  log(
    `Seeded ${args.licences - SMALL} more in ${seedS.toFixed(1)} s: ${counts.map((c) => `${c.n} ${c.t}`).join(', ')}; ${(Number(size) / 1048576).toFixed(0)} MB (load ${load()})`,
  );
  results.seed = { seconds: seedS, counts, bytes: Number(size) };

  const search = await measureSearch(database.url);
  log(
    `Console search at ${args.licences}: ${search.searches} searches, p50 ${search.p50} ms, p95 ${search.p95} ms; per kind ${Object.entries(
      search.perKind,
    )
      .map(([kind, t]) => `${kind} ${t.p50}/${t.p95}`)
      .join(', ')} ms (p50/p95; load ${load()})`,
  );
  verdict(
    search.p95 <= targets.searchP95Ms,
    `console search p95 ${search.p95} ms ≤ ${targets.searchP95Ms} ms`,
  );
  results.search = search;
  if (searchOnly || !small) {
    const figures = {
      licences: args.licences,
      search_p50_ms: search.p50,
      search_p95_ms: search.p95,
      searches: search.searches,
    };
    log(`\n${verdicts.join('\n')}\nload average ${load()}`);
    log(JSON.stringify(figures));
    process.exitCode = 0;
  } else {
    const app = await startInProcess(database.url, serverDir);
    const big = await measureValidation(app.validateUrl, 3);
    log(
      `Validation at ${args.licences}: ${big.rps} req/s (p99 ${big.p99Queued} ms at ${args.connections} connections); p50 ${big.p50} ms, p99 ${big.p99} ms at ${args.latencyConnections} connections, ${big.latencyRps} req/s (load ${load()})`,
    );
    verdict(
      big.p99 <= targets.validateP99Ms,
      `validation p99 ${big.p99} ms at ${args.latencyConnections} connections ≤ ${targets.validateP99Ms} ms`,
    );
    verdict(
      big.p99 <= Math.max(small.p99 * targets.validateP99Growth, small.p99 + 1),
      `validation p99 ${big.p99} ms within 20 % of ${small.p99} ms at ${SMALL} (or 1 ms, autocannon's resolution)`,
    );
    results.validation = { small: { licences: SMALL, ...small }, full: big };

    await app.close();

    const sweep = await measureSweep(database.url);
    log(
      `Lifecycle jobs: ${sweep.ms} ms, ${sweep.locked} rows locked of ${sweep.due} due, ${sweep.changed} changed (load ${load()})`,
    );
    verdict(sweep.ms <= targets.sweepMs, `sweep ${sweep.ms} ms ≤ ${targets.sweepMs} ms`);
    verdict(
      sweep.locked <= sweep.due,
      `sweep locked ${sweep.locked} rows, only the ${sweep.due} due`,
    );

    const retention = await measureRetention(database.url);
    log(`Retention job: ${retention.ms} ms, ${retention.rows} rows deleted (load ${load()})`);

    // The instances, with pools that fit max_connections (instances × (pool + 1) ≤ what is left).
    const [settings] = await adminQuery<{ max: string; used: string }>(
      `select current_setting('max_connections') as max, (select count(*) from pg_stat_activity) as used`,
    );
    const free = Number(settings?.max) - Number(settings?.used) - HEADROOM;
    const poolMax = Math.max(1, Math.min(10, Math.floor(free / args.instances) - 1));
    // One after another, as a rolling start brings them up (and no start waits out the others').
    const instances: Instance[] = [];
    let mixed: Awaited<ReturnType<typeof mixedLoad>> | undefined;
    let backup: { s: number; out: string } | undefined;
    let backupBytes = 0;
    let held: { n: string } | undefined;
    const backupFile = path.join(workDir, 'scale.backup.gz');
    try {
      for (let n = 0; n < args.instances; n++) {
        instances.push(await startInstance(database.url, poolMax));
      }
      mixed = await mixedLoad(instances, validationBody(3), args.mixedSeconds);
      log(
        `${args.instances} instances (pool ${poolMax} each, max_connections ${settings?.max}, ${settings?.used} in use before) for ${args.mixedSeconds} s: ${mixed.requests} requests, ${mixed.ok} 2xx, ${mixed.refused} 4xx, ${mixed.serverErrors} 5xx, ${mixed.failed} errors (load ${load()})`,
      );
      verdict(
        mixed.serverErrors === 0 && mixed.failed === 0,
        `${mixed.serverErrors} × 5xx, ${mixed.failed} errors`,
      );
      results.mixed = { ...mixed, poolMax, maxConnections: Number(settings?.max) };

      // Online: the admin command while the instances (workers and all) run.
      [held] = await adminQueryOn<{ n: string }>(
        database.url,
        'select count(*) as n from licences',
      );
      backup = await adminCommand(database.url, ['backup', backupFile]);
      backupBytes = (await stat(backupFile)).size;
      log(`${backup.out} Wall time ${backup.s.toFixed(1)} s (load ${load()})`);
      verdict(
        backup.s <= targets.backupS,
        `online backup ${backup.s.toFixed(1)} s ≤ ${targets.backupS} s`,
      );
    } finally {
      await Promise.all(instances.map((instance) => instance.stop()));
    }
    if (!mixed || !backup) throw new Error('the instances or the backup did not finish');

    // The restore into a fresh database (its migrations only), as after losing the server.
    await openDatabase({ databaseUrl: restored.url, poolMax: 1 }).then((h) => h.close());
    const restore = await adminCommand(restored.url, ['restore', backupFile]);
    log(`${restore.out} Wall time ${restore.s.toFixed(1)} s (load ${load()})`);
    const [back] = await adminQueryOn<{ n: string }>(
      restored.url,
      'select count(*) as n from licences',
    );
    if (back?.n !== held?.n) {
      throw new Error(`the restore holds ${back?.n} licences, the backup was taken of ${held?.n}`);
    }
    await restored.drop();
    verdict(
      restore.s <= targets.restoreS,
      `restore ${restore.s.toFixed(1)} s ≤ ${targets.restoreS} s`,
    );

    const figures = {
      licences: args.licences,
      validate_rps: big.rps,
      validate_p99_ms: big.p99,
      validate_p99_ms_1k: small.p99,
      validate_connections: args.latencyConnections,
      validate_p99_ms_queued: big.p99Queued,
      sweep_ms: sweep.ms,
      sweep_rows_locked: sweep.locked,
      retention_ms: retention.ms,
      backup_s: Number(backup.s.toFixed(1)),
      backup_mb: Number((backupBytes / 1048576).toFixed(1)),
      restore_s: Number(restore.s.toFixed(1)),
      instances: args.instances,
      mixed_requests: mixed.requests,
      mixed_5xx: mixed.serverErrors,
      search_p50_ms: search.p50,
      search_p95_ms: search.p95,
    };
    const file = await writeResults('scale', { figures, results });
    log(`\n${verdicts.join('\n')}\nResults written to ${file}; load average ${load()}`);
    log(JSON.stringify(figures));
  }
} finally {
  await rm(workDir, { recursive: true, force: true });
  await restored.drop().catch(() => undefined);
  await database.drop();
}
