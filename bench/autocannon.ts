/**
 * Page throughput against a file server: builds, starts the production server as a user would
 * (default log level, embedded database), saves the very bytes of each page to disk and serves
 * them with Debian's nginx on its own port as the reference. Server and nginx each run pinned to
 * the first core, autocannon to the second, no compression asked for; per page it prints the
 * requests per second of both, the ratio Orgsmith/nginx and the latency percentiles, plus the load
 * average before and after. Results also go to bench/results/.
 *
 *   node bench/autocannon.ts [--skip-build] [--connections 10] [--duration 10] [--warmup 3]
 *                            [--node-flags="--max-semi-space-size=16"] [/path ...]
 *
 * `--node-flags` runs the server with these flags instead of the production ones (`--node-flags=`:
 * node's defaults); the `=` is needed, as the value starts with a dash.
 *
 * nginx comes from Debian (`apt-get install -y nginx`); the script installs it when it may.
 */
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { z } from 'zod';
import {
  buildSite,
  freePort,
  startProductionServer,
  stopOnExit,
  waitForOk,
} from './support/server.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'skip-build': { type: 'boolean', default: false },
    connections: { type: 'string', default: '10' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    'node-flags': { type: 'string' },
  },
});
const targets =
  positionals.length > 0
    ? positionals
    : ['/', '/pricing', '/download', '/imprint', '/features/toolbox-commands', '/healthz'];

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

const hasTaskset = spawnSync('taskset', ['--version']).status === 0;
const pinned = hasTaskset && availableParallelism() >= 2;
/** `command args` on one core when the machine has two or more and taskset is there. */
function onCore(core: number, command: string, args: string[]): [string, string[]] {
  return pinned ? ['taskset', ['-c', String(core), command, ...args]] : [command, args];
}

async function runAutocannon(url: string, seconds: string): Promise<Report> {
  // autocannon's CLI on our Node 24 (its shebang would pick the system's older Node), on core 1.
  const [command, args] = onCore(1, process.execPath, [
    'node_modules/autocannon/autocannon.js',
    '--json',
    '--connections',
    values.connections,
    '--duration',
    seconds,
    url,
  ]);
  const { stdout } = await promisify(execFile)(command, args, {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return report.parse(JSON.parse(stdout));
}

async function measure(label: string, url: string): Promise<Report> {
  process.stdout.write(`${label} … `);
  if (Number(values.warmup) > 0) await runAutocannon(url, values.warmup);
  const result = await runAutocannon(url, values.duration);
  console.log(`${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms`);
  return result;
}

function findNginx(): string | undefined {
  for (const candidate of ['/usr/sbin/nginx', 'nginx']) {
    if (spawnSync(candidate, ['-v']).status === 0) return candidate;
  }
  if (process.getuid?.() === 0) {
    console.log('nginx is missing: apt-get install -y nginx …');
    spawnSync('apt-get', ['install', '-y', 'nginx'], { stdio: 'ignore' });
    if (spawnSync('/usr/sbin/nginx', ['-v']).status === 0) return '/usr/sbin/nginx';
  }
  return undefined;
}

interface Reference {
  baseUrl: string;
  stop(): Promise<void>;
}

/** nginx with one worker serving `root`, as a default install would (access log on, sendfile). */
async function startNginx(binary: string, root: string): Promise<Reference> {
  const port = await freePort();
  const prefix = mkdtempSync(path.join(tmpdir(), 'orgsmith-bench-nginx-'));
  const config = path.join(prefix, 'nginx.conf');
  writeFileSync(
    config,
    `worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log;
events { worker_connections 1024; }
http {
  access_log ${prefix}/access.log;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  default_type text/html;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  server {
    listen 127.0.0.1:${port};
    root ${root};
    location / { try_files $uri $uri/index.html =404; }
  }
}
`,
  );
  const [command, args] = onCore(0, binary, ['-p', prefix, '-c', config, '-g', 'daemon off;']);
  const child: ChildProcess = spawn(command, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const forget = stopOnExit(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(prefix, { recursive: true, force: true });
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForOk(`${baseUrl}/index.html`, 10_000);
  return {
    baseUrl,
    async stop() {
      if (child.exitCode === null) child.kill('SIGQUIT');
      await exited;
      forget();
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}

/** Where nginx finds the bytes of `target`: `/` → `index.html`, `/imprint` → `imprint/index.html`. */
function fileOf(target: string): string {
  return target === '/' ? 'index.html' : path.join(target.slice(1), 'index.html');
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

if (!values['skip-build']) buildSite();
console.log(`Load average before: ${load()}`);
if (!pinned) console.log('Not pinned to cores (needs taskset and two cores): ratios are rougher.');

const nodeFlags = values['node-flags']?.split(' ').filter(Boolean);
const server = await startProductionServer({
  logLevel: 'info',
  core: pinned ? 0 : undefined,
  ...(nodeFlags ? { nodeFlags } : {}),
});
const pages = mkdtempSync(path.join(tmpdir(), 'orgsmith-bench-pages-'));
// nginx's worker runs as an unprivileged user: it must be able to read the pages.
chmodSync(pages, 0o755);
const forgetPages = stopOnExit(() => rmSync(pages, { recursive: true, force: true }));
interface Row {
  path: string;
  orgsmith: Report;
  nginx: Report | undefined;
}
const rows: Row[] = [];
let reference: Reference | undefined;
try {
  for (const target of targets) {
    // The very bytes a visitor gets without compression (the first request also renders it).
    const body = Buffer.from(await (await fetch(`${server.baseUrl}${target}`)).arrayBuffer());
    const file = path.join(pages, fileOf(target));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, body);
  }
  const nginx = findNginx();
  if (nginx) reference = await startNginx(nginx, pages);
  else console.log('nginx not found: install it with apt-get install -y nginx for the reference.');

  for (const target of targets) {
    const nginxReport = reference
      ? await measure(`nginx    ${target}`, `${reference.baseUrl}/${fileOf(target)}`)
      : undefined;
    const orgsmith = await measure(`Orgsmith ${target}`, `${server.baseUrl}${target}`);
    rows.push({ path: target, orgsmith, nginx: nginxReport });
  }
} finally {
  await reference?.stop();
  await server.stop();
  forgetPages();
  rmSync(pages, { recursive: true, force: true });
}

console.log('');
console.log(
  `${values.connections} connections, ${values.duration} s per run after ${values.warmup} s of warm-up, no compression; ` +
    (pinned ? 'servers on core 0, autocannon on core 1.' : 'not pinned.'),
);
console.table(
  rows.map((row) => ({
    path: row.path,
    'Orgsmith req/s': Math.round(row.orgsmith.requests.average),
    'nginx req/s': row.nginx ? Math.round(row.nginx.requests.average) : '–',
    ratio: row.nginx
      ? (row.orgsmith.requests.average / row.nginx.requests.average).toFixed(2)
      : '–',
    'Orgsmith p99 ms': row.orgsmith.latency.p99,
    'nginx p99 ms': row.nginx ? row.nginx.latency.p99 : '–',
    'Orgsmith p50 ms': row.orgsmith.latency.p50,
    'non-2xx': row.orgsmith.non2xx,
    errors: row.orgsmith.errors + row.orgsmith.timeouts,
  })),
);
console.log(`Load average after: ${load()}`);
const directory = path.resolve('bench/results');
mkdirSync(directory, { recursive: true });
const resultFile = path.join(
  directory,
  `autocannon-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
);
writeFileSync(
  resultFile,
  JSON.stringify(
    {
      date: new Date().toISOString(),
      connections: Number(values.connections),
      pinned,
      loadAverage: loadavg(),
      rows,
    },
    null,
    2,
  ),
);
console.log(`Wrote ${path.relative(process.cwd(), resultFile)}`);
